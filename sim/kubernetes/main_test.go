package kubernetes_test

import (
	"testing"

	"github.com/lockscope/lockscope/sim/simtest"
)

// TestMain installs the designs' simulator sides: no design adds itself.
func TestMain(m *testing.M) { simtest.Main(m) }
