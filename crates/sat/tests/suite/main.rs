//! sat's integration tests, in one test binary: each module was a
//! test file of its own. Together they compile the shape pairs they share
//! once instead of once per file, and link one binary instead of one each.

mod cache;
mod common;
mod coplanar_incident_faces;
mod fuzz;
mod hull_data;
mod knife_edges;
mod manifold;
mod query;
mod sliver_edges;
mod touching_along_an_edge;
