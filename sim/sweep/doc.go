// Package sweep is the trade-off grid behind `lockscope sweep` and the
// window's Trade-off view: a base scenario per mode (Base), axes over the
// fields a sweep can vary (sim.SweepFields), a cell's verdict over its
// seeds (Cell), the runs made in parallel, each one single-threaded, the
// paused runs along a pause axis made as one run forked at the pause, a
// RunCache that sweeps of one base share, and the garbage collector's
// target raised while sweeps run (KeepGCRaised).
//
// It stands beside the pure core, as etcd-io/raft keeps node.go apart from
// rawnode.go: package sim makes one run (sim.NewVerdictRun, SettleVerdict,
// SettleUntil, Fork, Tie, Release are the hooks a sweep's runs need) and
// starts no goroutine; this package decides which runs to make, makes
// them on workers and sums their verdicts. Each run is seeded, so a grid's
// numbers do not depend on the number of workers or their order
// (TestSweepGolden).
package sweep
