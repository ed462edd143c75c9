package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lockscope/lockscope/sim"
)

func TestGroupThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1 000", 12000: "12 000", 63000: "63 000",
		1234567: "1 234 567", -1000: "-1 000", -999: "-999"} {
		assert.Equal(t, want, sim.GroupThousands(n), "%d", n)
	}
}
