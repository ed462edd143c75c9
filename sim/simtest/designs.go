package simtest

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/dynamodb"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// Modes are the simulator sides of the designs, for the tests that cannot
// link the window (the simulator's, and the widgets' below their design
// folders): the Sim of each entry of designs.All, in its order, which a
// test of package designs holds them to.
func Modes() []sim.Mode {
	return []sim.Mode{etcd.Mode, redis.Mode, redlock.Mode, zookeeper.Mode, dynamodb.Mode, kubernetes.Mode}
}

// Install adds Modes to the simulator (sim.AddMode), once however often
// it is called, and gives the first call's error.
var Install = sync.OnceValue(func() error {
	for _, m := range Modes() {
		if err := sim.AddMode(m); err != nil {
			return err
		}
	}
	return nil
})

// Main is a TestMain that installs the designs' simulator sides (Install)
// before it runs the package's tests.
func Main(m *testing.M) {
	if err := Install(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
