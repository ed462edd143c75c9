package widgets

import "slices"

// AssignLanes gives each of a picture's arrows (or any spans side by side)
// a lane, taking them in order (a permutation of their indexes): the
// lowest lane in which it clashes with none of the arrows already there.
// clash says whether arrows i and j may not share a lane: the picture's
// rule (overlapping rows; etcd's herd arrows to one row share a trunk).
// It returns each arrow's lane and how many lanes there are.
func AssignLanes(order []int, clash func(i, j int) bool) ([]int, int) {
	lanes := make([]int, len(order))
	var taken [][]int
	for _, i := range order {
		l := 0
		for l < len(taken) && slices.ContainsFunc(taken[l], func(j int) bool { return clash(i, j) }) {
			l++
		}
		if l == len(taken) {
			taken = append(taken, nil)
		}
		taken[l] = append(taken[l], i)
		lanes[i] = l
	}
	return lanes, len(taken)
}
