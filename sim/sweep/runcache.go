package sweep

import "sync"

// RunCache keeps the runs of sweeps over one base, by cell and seed, so a
// later sweep that meets a run already made takes its result instead of
// running it again: the window's refined map reuses the runs of its coarse
// pass, whose cells and seeds are among the refined map's. A run is
// deterministic (its scenario and seed give its verdict), so a result taken
// from the cache is the one the run would give, and no cell changes. The
// sweeps that share a cache have the same Base and PauseAt; the axes'
// fields are part of the key. Safe for concurrent use.
type RunCache struct {
	mu     sync.Mutex
	sealed bool                 // answers only: keeps no more runs
	paused map[runKey]runResult // a cell's paused run (its recovery not set)
	crash  map[runKey]float64   // a crash run's recovery, keyed off the pause axis
}

// runKey is one run of a sweep: its cell's coordinates and its seed.
type runKey struct {
	xField, yField string
	x, y           float64
	seed           int64
}

// NewRunCache is an empty cache.
func NewRunCache() *RunCache {
	return &RunCache{paused: map[runKey]runResult{}, crash: map[runKey]float64{}}
}

// Seal makes the cache answer from the runs it has and keep no more: the
// window seals it after the coarse pass, so the refined map, which meets
// each of its own runs once, does not fill it with them.
func (c *RunCache) Seal() {
	c.mu.Lock()
	c.sealed = true
	c.mu.Unlock()
}

func (sw *Sweep) runKey(x, y float64, seed int64) runKey {
	return runKey{xField: sw.X.Field, yField: sw.Y.Field, x: x, y: y, seed: seed}
}

// crashKey is the key of a cell's crash run: a crash run ignores the
// pause (CellScenario), so the pause's coordinate is left out, as
// crashShare leaves it out.
func (sw *Sweep) crashKey(x, y float64, seed int64) runKey {
	if sw.X.Field == "pause" {
		x = 0
	} else if sw.Y.Field == "pause" {
		y = 0
	}
	return sw.runKey(x, y, seed)
}

// lookup is the paused run k that a sweep sharing the cache made; none
// without a cache.
func (c *RunCache) lookup(k runKey) (runResult, bool) {
	if c == nil {
		return runResult{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.paused[k]
	return r, ok
}

// keep adds the paused run k, unless the cache is sealed or there is none.
func (c *RunCache) keep(k runKey, r runResult) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if !c.sealed {
		c.paused[k] = r
	}
	c.mu.Unlock()
}

// crashRun is the cell's crash run's recovery for seed, from the cache
// when a sweep sharing it made it.
func (sw *Sweep) crashRun(x, y float64, seed int64) float64 {
	run := func() float64 { return sw.recoveryMs(x, y, seed) }
	if sw.Runs == nil {
		return run()
	}
	return cached(sw.Runs, sw.Runs.crash, sw.crashKey(x, y, seed), run)
}

// cached is k's value in m, one of c's maps, or else what run gives, kept
// in m unless c is sealed.
func cached[V any](c *RunCache, m map[runKey]V, k runKey, run func() V) V {
	c.mu.Lock()
	v, ok := m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = run()
	c.mu.Lock()
	if !c.sealed {
		m[k] = v
	}
	c.mu.Unlock()
	return v
}
