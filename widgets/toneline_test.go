package widgets

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestLeaseFraction(t *testing.T) {
	for _, tc := range []struct {
		left, lease time.Duration
		want        float32
	}{
		{20 * time.Second, 20 * time.Second, 1},
		{5 * time.Second, 20 * time.Second, 0.25},
		{0, 20 * time.Second, 0},
		{-time.Second, 20 * time.Second, 0},
		{30 * time.Second, 20 * time.Second, 1},
		{time.Second, 0, 0},
	} {
		assert.InDelta(t, tc.want, LeaseFraction(tc.left, tc.lease), 1e-6, "%v of %v", tc.left, tc.lease)
	}
}

func TestClockRate(t *testing.T) {
	assert.Equal(t, "+40 %", ClockRate(0.4))
	assert.Equal(t, "-5 %", ClockRate(-0.05))
	assert.Equal(t, "+0 %", ClockRate(0))
}
