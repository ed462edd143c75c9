package sim_test

import (
	"os"
	"testing"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// TestMain installs the designs' simulator sides (no design adds itself)
// and the test modes, after them.
func TestMain(m *testing.M) {
	if err := simtest.Install(); err != nil {
		panic(err)
	}
	sim.RegisterMode(timerMode{})
	sim.RegisterMode(monoMode{})
	os.Exit(m.Run())
}
