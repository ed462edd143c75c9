package zookeeper

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestZKSessionFormat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{10, "10 s"},
		{4, "4 s"},
		{40, "40 s"},
		{60, "60→40 s"}, // Curator's default, clamped by a default server
		{1, "1→4 s"},
		{3.5, "3.5→4 s"},
	} {
		assert.Equal(t, tc.want, zkSessionFormat(tc.v), "%v s", tc.v)
	}
}
