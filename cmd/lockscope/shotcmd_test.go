package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodePNG reads a PNG file.
func decodePNG(t *testing.T, path string) (image.Image, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return img, data
}

// colours counts the distinct colours of an image, sampling every 4th
// pixel each way.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}

// shot draws the tab at the size asked for times the scale, with the
// picture in it (not a blank or one-colour image), and draws it the same
// pixel for pixel every time.
func TestShotIsTheRightSizeNotBlankAndTheSameTwice(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png")
	code, _, stderr := invoke("shot", "redis-gc-pause", "--at", "12s", "--out", a, "--size", "1200x800")
	require.Equal(t, exitOK, code, stderr)
	img, first := decodePNG(t, a)
	assert.Equal(t, image.Rect(0, 0, 2400, 1600), img.Bounds(), "1200×800 points at the default 2× scale")
	assert.Greater(t, colours(img), 200, "the picture has text, bars and panels, not one flat colour")

	code, _, stderr = invoke("shot", "redis-gc-pause", "--at=12s", "--out="+b, "--size=1200x800")
	require.Equal(t, exitOK, code, stderr)
	_, second := decodePNG(t, b)
	assert.True(t, bytes.Equal(first, second), "the same input gives the same picture, byte for byte")

	c := filepath.Join(dir, "c.png")
	code, _, stderr = invoke("shot", "redis-gc-pause", "--at", "2s", "--out", c, "--size", "1200x800", "--scale", "1", "--set", "fencing=true")
	require.Equal(t, exitOK, code, stderr)
	img, third := decodePNG(t, c)
	assert.Equal(t, image.Rect(0, 0, 1200, 800), img.Bounds())
	assert.False(t, bytes.Equal(first, third), "another instant is another picture")
}

// withoutProgress drops the progress lines a slow machine (or -race) lets
// a long refusal print before it (progress.go: after half a second), so
// the refusal itself can be counted.
func withoutProgress(stderr string) string {
	var keep []string
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(line, "simulating: ") && !strings.HasPrefix(line, "simulated in ") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

func TestShotBadInputIsOneLineAndExit2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	for _, args := range [][]string{
		{"shot"},
		{"shot", "redis-gc-pause"},
		{"shot", "redis-gc-pause", "--out", out, "--at", "soon"},
		{"shot", "redis-gc-pause", "--out", out, "--size", "10x10"},
		{"shot", "redis-gc-pause", "--out", out, "--scale", "0"},
		{"shot", "no-such-preset", "--out", out},
		{"shot", "redis-gc-pause", "--out", out, "--set", "ttl=-1s"},
		{"shot", "redis-gc-pause", "--out", out, "--bogus"},
		// Too long to record with quick seeks: refused up front.
		{"shot", "redis-happy-path", "--out", out, "--set", "clients=200", "--set", "rounds=0", "--set", "duration=24h"},
	} {
		code, _, stderr := invoke(args...)
		assert.Equal(t, exitUsage, code, "%q", args)
		said := withoutProgress(stderr)
		assert.Equal(t, 1, bytes.Count([]byte(said), []byte("\n")), "%q: %s", args, stderr)
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "no picture for bad input")
	code, stdout, _ := invoke("shot", "--help")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "--at DURATION")
}
