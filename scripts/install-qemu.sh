#!/bin/sh
# Installs Debian's qemu-system-arm (for `cargo xtask firmware`), if missing.
# Idempotent and non-interactive; uses sudo when not run as root.
set -eu

if command -v qemu-system-arm >/dev/null 2>&1; then
    echo "qemu-system-arm is already installed: $(qemu-system-arm --version | head -n 1)"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-qemu.sh: apt-get not found; install qemu-system-arm (QEMU >= 6.0, for the" >&2
    echo "mps2-an386 board) with your system's package manager" >&2
    exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-qemu.sh: not root and no sudo; run as root: apt-get install qemu-system-arm" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends qemu-system-arm
qemu-system-arm --version | head -n 1
