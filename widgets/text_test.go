package widgets

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWrapText(t *testing.T) {
	s := "client-1 believes it holds the lock (token 2), but its key is gone"
	one := TextWidth(s, 12, true)
	assert.Equal(t, []string{s}, WrapText(s, one+1, 12, true, 2))
	two := WrapText(s, one*0.6, 12, true, 2)
	require.Len(t, two, 2)
	assert.Equal(t, s, two[0]+" "+two[1])
	cut := WrapText(s, one*0.3, 12, true, 2)
	require.Len(t, cut, 2)
	assert.True(t, strings.HasSuffix(cut[1], "…"))
	for _, l := range cut {
		assert.LessOrEqual(t, TextWidth(l, 12, true), one*0.3+0.5)
	}
}

func TestShortTime(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second:        "10 s",
		100 * time.Millisecond:  "100 ms",
		2500 * time.Millisecond: FormatTime(2500 * time.Millisecond),
		667 * time.Millisecond:  "667 ms",
	} {
		assert.Equal(t, want, ShortTime(d), "%v", d)
	}
}

// FitText keeps what fits, else the longest start of the text that fits
// with "…", else "…" alone.
func TestFitText(t *testing.T) {
	s := "client-1 believes it holds the lock"
	full := TextWidth(s, 12, true)
	assert.Equal(t, s, FitText(s, 12, true, full))
	assert.Equal(t, s, FitText(s, 12, true, 0), "no width to fit: left alone")
	for _, w := range []float32{full - 1, full / 2, full / 5} {
		got := FitText(s, 12, true, w)
		require.True(t, strings.HasSuffix(got, "…"), "%v: %q", w, got)
		start := strings.TrimSuffix(got, "…")
		assert.True(t, strings.HasPrefix(s, start))
		assert.LessOrEqual(t, TextWidth(got, 12, true), w)
		next := []rune(s)[:len([]rune(start))+1]
		assert.Greater(t, TextWidth(string(next)+"…", 12, true), w, "%v: the longest start that fits", w)
	}
	assert.Equal(t, "…", FitText(s, 12, true, 1))
}
