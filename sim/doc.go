// Package sim is LockScope's simulator: a deterministic discrete-event
// engine on a virtual clock (one seeded RNG, no goroutines or wall clock
// inside a run), its network, clocks and faults, the Mode interface a
// lock design implements (its server and client Processes; each design is
// a package of its own under sim/, installed with AddMode by the list of designs, package designs), the checker
// that judges a run in true time, and what is built on runs: recordings
// for time travel, snapshots for the widgets, traces, sweeps. It imports
// no GUI code. ARCHITECTURE.md at the top of the repository is its map;
// DESIGN.md the contract of the scenario file and the summary.
package sim
