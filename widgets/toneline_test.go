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

func TestWholeLines(t *testing.T) {
	// Three clients of two lines each, 20 points a line, from 0.
	tops := []float32{0, 20, 40, 60, 80, 100}
	heights := []float32{20, 20, 20, 20, 20, 20}
	owner := []int{0, 0, 1, 1, 2, 2}
	for _, tc := range []struct {
		bottom      float32
		shown, more int
		moreY       float32
	}{
		{120, 6, 0, 0},  // all fit
		{119, 4, 1, 80}, // the third client gives way to "1 more"
		{99, 2, 2, 40},  // the second too: the "more" line needs its 20 points
		{59, 0, 3, 0},   // not even the first with the line
	} {
		shown, more, moreY := WholeLines(tops, heights, owner, tc.bottom, 20)
		assert.Equal(t, tc.shown, shown, "bottom %v", tc.bottom)
		assert.Equal(t, tc.more, more, "bottom %v", tc.bottom)
		if tc.more > 0 {
			assert.Equal(t, tc.moreY, moreY, "bottom %v", tc.bottom)
		}
	}
	shown, more, _ := WholeLines(nil, nil, nil, 10, 20)
	assert.Equal(t, 0, shown)
	assert.Equal(t, 0, more)
}

func TestRanked(t *testing.T) {
	type c struct {
		name string
		rank int
		left time.Duration
	}
	in := []c{{"idle", 2, 0}, {"w-late", 1, 9 * time.Second}, {"holds", 0, 0}, {"w-soon", 1, time.Second}, {"idle2", 2, -time.Second}}
	out := Ranked(in, func(x c) int { return x.rank }, 1, func(x c) time.Duration { return x.left })
	var names []string
	for _, x := range out {
		names = append(names, x.name)
	}
	assert.Equal(t, []string{"holds", "w-soon", "w-late", "idle", "idle2"}, names, "by rank; the waiters by how soon; the rest as they came")
	assert.Equal(t, "idle", in[0].name, "the input is left as it was")
}
