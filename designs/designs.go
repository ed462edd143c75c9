// Package designs is the one list of the program's lock designs: each entry
// holds a design's simulator side (its sim.Mode) and its window side (its
// designtab.ModeTab) as values. Nothing registers itself: cmd/lockscope
// calls Install at start, before any scenario is read or any window opens,
// and the tests that need every design call it too (a TestMain).
package designs

import (
	"errors"
	"fmt"
	"sync"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/dynamodb"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets/designtab"
	dynamodbtab "github.com/lockscope/lockscope/widgets/dynamodb"
	etcdtab "github.com/lockscope/lockscope/widgets/etcd"
	kubernetestab "github.com/lockscope/lockscope/widgets/kubernetes"
	redistab "github.com/lockscope/lockscope/widgets/redis"
	redlocktab "github.com/lockscope/lockscope/widgets/redlock"
	zookeepertab "github.com/lockscope/lockscope/widgets/zookeeper"
)

// Design is one lock design: what the simulator runs and what the window
// shows of it. Both are needed; their names must agree.
type Design struct {
	Sim    sim.Mode          // the simulator side: sim/<design>.Mode
	Window designtab.ModeTab // the window side: widgets/<design>.Tab
}

// All is every design. The window's tabs, listings and preset groups come
// in each design's Traits.Place, not in this order; this order is the one
// the designs' options are bound in (the first design to declare a key
// several share gives its check and refusal), which was the order of the
// packages' initialisation before the list was explicit.
func All() []Design {
	return []Design{
		{Sim: etcd.Mode, Window: etcdtab.Tab},
		{Sim: redis.Mode, Window: redistab.Tab},
		{Sim: redlock.Mode, Window: redlocktab.Tab},
		{Sim: zookeeper.Mode, Window: zookeepertab.Tab},
		{Sim: dynamodb.Mode, Window: dynamodbtab.Tab},
		{Sim: kubernetes.Mode, Window: kubernetestab.Tab},
	}
}

// Check says what is wrong with a list of designs, nil when nothing is: an
// entry without its simulator side or its window side, a window side of
// another design than its simulator side, a design listed twice.
func Check(list []Design) error {
	var errs []error
	seen := map[string]bool{}
	for i, d := range list {
		name := ""
		if d.Sim != nil {
			name = d.Sim.Name()
		}
		switch {
		case d.Sim == nil && d.Window.Mode == "":
			errs = append(errs, fmt.Errorf("designs: entry %d has neither a simulator side nor a window side", i+1))
		case d.Sim == nil:
			errs = append(errs, fmt.Errorf("designs: entry %d (%s) has no simulator side (Sim, its sim.Mode)", i+1, d.Window.Mode))
		case name == "":
			errs = append(errs, fmt.Errorf("designs: entry %d has a simulator side without a name", i+1))
		case d.Window.Mode == "":
			errs = append(errs, fmt.Errorf("designs: entry %d (%s) has no window side (Window, its designtab.ModeTab)", i+1, name))
		case d.Window.Mode != name:
			errs = append(errs, fmt.Errorf("designs: entry %d has the simulator side of %s and the window side of %s", i+1, name, d.Window.Mode))
		}
		if name != "" {
			if seen[name] {
				errs = append(errs, fmt.Errorf("designs: %s is listed twice", name))
			}
			seen[name] = true
		}
	}
	return errors.Join(errs...)
}

// Install checks the list and adds every design's two sides, the simulator
// side first (sim.AddMode), then its tab (designtab.Register). It is for
// once per process, before any scenario is read.
func Install(list []Design) (err error) {
	if err := Check(list); err != nil {
		return err
	}
	for _, d := range list {
		if err := sim.AddMode(d.Sim); err != nil {
			return err
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	for _, d := range list {
		designtab.Register(d.Window, nil, nil)
	}
	return nil
}

// InstallAll installs All, once however often it is called (the program's
// start and every test binary's TestMain), and gives the first call's error.
var InstallAll = sync.OnceValue(func() error { return Install(All()) })
