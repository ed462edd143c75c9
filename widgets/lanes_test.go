package widgets

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Each arrow, in the order given, takes the lowest lane where it clashes
// with none already there; an arrow that clashes with nothing shares.
func TestAssignLanes(t *testing.T) {
	spans := [][2]int{{0, 3}, {1, 2}, {4, 5}, {2, 4}}
	overlap := func(i, j int) bool { return spans[i][0] <= spans[j][1] && spans[j][0] <= spans[i][1] }
	lanes, n := AssignLanes([]int{0, 1, 2, 3}, overlap)
	assert.Equal(t, []int{0, 1, 0, 2}, lanes)
	assert.Equal(t, 3, n)

	lanes, n = AssignLanes([]int{3, 2, 1, 0}, overlap)
	assert.Equal(t, []int{2, 1, 1, 0}, lanes, "the order decides who gets the low lanes")
	assert.Equal(t, 3, n)

	lanes, n = AssignLanes([]int{0, 1, 2, 3}, func(int, int) bool { return false })
	assert.Equal(t, []int{0, 0, 0, 0}, lanes)
	assert.Equal(t, 1, n)

	lanes, n = AssignLanes(nil, overlap)
	assert.Empty(t, lanes)
	assert.Zero(t, n)
}
