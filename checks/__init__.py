"""hauntcheck's checks: the verify report and the families of checks it runs over the specs
(schemas and cross-references, graphs, solvers, golden replays, scenarios)."""
