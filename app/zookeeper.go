package app

import (
	"strconv"

	"github.com/lockscope/lockscope/sim"
)

// zkSessionFormat shows a requested session timeout, and what the server
// grants when it clamps it to [2, 20] × tickTime: "60→40 s".
func zkSessionFormat(v float64) string {
	asked := fromSeconds(v).D()
	got := sim.ZKSessionTimeout(asked)
	if got == asked {
		return fmtSeconds(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + "→" + fmtSeconds(got.Seconds())
}
