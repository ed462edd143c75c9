package etcd

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"

	"github.com/lockscope/lockscope/assets/i18n"
	etcdsim "github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/widgets"
)

// spotBox is the rectangle a text spot's words take at size, bold or not.
func spotBox(s widgets.TextSpot, size float32, bold bool) (x, y, w, h float32) {
	ms := fyne.MeasureText(s.Text, size, fyne.TextStyle{Bold: bold})
	return s.Pos.X, s.Pos.Y, ms.Width, ms.Height
}

// etcdRowGeometry keeps a row's words and pills inside its frame: the
// revision, client and key left to right on the first line clear of the
// tag at its right edge, the lease, its bar and the time left left to
// right under them; a key too long for its room is its lease; a thin row
// has the bar alone along its foot.
func TestEtcdRowGeometry(t *testing.T) {
	test.NewTempApp(t)
	th := fyne.CurrentApp().Settings().Theme()
	fg, muted := color.NRGBA{A: 0xFF}, color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xFF}
	lease := &etcdsim.Lease{ID: 0x694d8b2a1c3e5f70, Client: "client-1", TTL: 10 * time.Second, Left: 6 * time.Second}
	key := etcdsim.Key{Key: "/lock/694d8b2a1c3e5f70", Owner: "client-1", Lease: 0x694d8b2a1c3e5f70, CreateRev: 12}
	longKey := key
	longKey.Key = "/a/very/long/mutex/prefix/that/takes/the/whole/row/694d8b2a1c3e5f70"
	caption := th.Size(theme.SizeNameCaptionText)
	for _, tc := range []struct {
		name      string
		row       etcdRow
		k, width  float32
		small     bool
		shortKey  bool // the key written as its lease
		leaseLine bool // a second line of words
	}{
		{"owner", etcdRow{kind: etcdRowKey, key: key, lease: lease, client: "client-1", tag: "owns the lock", owner: true}, 1, 560, false, false, true},
		{"waiter", etcdRow{kind: etcdRowKey, key: key, lease: lease, client: "client-2", tag: "waits on rev 12"}, 1, 560, false, false, true},
		{"long key", etcdRow{kind: etcdRowKey, key: longKey, lease: lease, client: "client-2", tag: "queued"}, 1, 560, false, true, true},
		{"lease gone", etcdRow{kind: etcdRowKey, key: key, client: "client-3", tag: "queued"}, 1, 560, false, false, true},
		{"lease, no key", etcdRow{kind: etcdRowLease, lease: lease, client: "client-4", tag: "idle"}, 1, 560, false, false, true},
		{"key gone", etcdRow{kind: etcdRowGone, client: "client-5", tag: "waits on rev 9"}, 1, 560, false, false, false},
		{"thin", etcdRow{kind: etcdRowKey, key: key, lease: lease, client: "client-1", tag: "owns the lock", owner: true}, 1, 560, true, false, false},
		{"narrow", etcdRow{kind: etcdRowKey, key: key, lease: lease, client: "client-1", tag: "queued"}, 1, 330, false, true, true},
		{"large", etcdRow{kind: etcdRowKey, key: key, lease: lease, client: "client-1", tag: "owns the lock", owner: true}, 1.6, 1100, false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := tc.k
			g := etcdGeometry{k: k, grow: k, em: 1, small: tc.small, rowH: etcdRowH * k, gutter: 40 * k}
			if tc.small {
				g.rowH = etcdRowSmallH * k
			}
			const y = 50
			s := etcdRowGeometry(tc.row, y, g, tc.width, caption*k, th, fg, muted)
			assert.Equal(t, fyne.NewPos(g.gutter, y), s.frame.Pos, "the frame right of the gutter")
			assert.InDelta(t, tc.width, s.frame.Pos.X+s.frame.Size.Width, 0.01, "and to the right edge")
			for what, r := range map[string]widgets.RectSpot{"revision pill": s.revBg, "tag pill": s.tagBg, "bar track": s.barBg, "bar": s.bar} {
				if r.Shown {
					assertInFrame(t, s, what, r.Pos.X, r.Pos.Y, r.Size.Width, r.Size.Height)
				}
			}
			assertEtcdFirstLine(t, s, tc.row, k, caption*k, tc.shortKey)
			assertEtcdLeaseLine(t, s, tc.row, k, caption*k, tc.small, tc.leaseLine)
		})
	}
}

// assertInFrame checks that the rectangle (x, y, w, h) lies in the row's
// frame.
func assertInFrame(t *testing.T, s etcdRowSpots, what string, x, y, w, h float32) {
	t.Helper()
	fp, fs := s.frame.Pos, s.frame.Size
	assert.True(t, x >= fp.X && x+w <= fp.X+fs.Width+0.01 && y >= fp.Y && y+h <= fp.Y+fs.Height+0.01,
		"%s (%v, %v, %v, %v) inside the frame %v %v", what, x, y, w, h, fp, fs)
}

// assertEtcdFirstLine checks a row's first line at scale k, its small
// print at caption: the revision, client and key left to right, clear of
// the tag at the right edge; shortKey: the key is written as its lease.
func assertEtcdFirstLine(t *testing.T, s etcdRowSpots, row etcdRow, k, caption float32, shortKey bool) {
	t.Helper()
	fp, fs := s.frame.Pos, s.frame.Size
	ox, oy, ow, oh := spotBox(s.owner, etcdLineSize*k, true)
	assertInFrame(t, s, "client", ox, oy, ow, oh)
	assert.Equal(t, row.client, s.owner.Text)
	assert.Equal(t, row.kind == etcdRowKey, s.rev.Shown && s.revBg.Shown, "a key's create revision")
	if s.rev.Shown {
		assert.Less(t, s.revBg.Pos.X+s.revBg.Size.Width, ox, "revision before the client")
		rx, ry, rw, _ := spotBox(s.rev, etcdSmallSize*k, true)
		assert.True(t, rx >= s.revBg.Pos.X && rx+rw <= s.revBg.Pos.X+s.revBg.Size.Width && ry >= s.revBg.Pos.Y, "the revision on its pill")
	}
	assert.True(t, s.tag.Shown && s.tagBg.Shown, "the tag")
	assert.InDelta(t, fp.X+fs.Width-etcdInset*k, s.tagBg.Pos.X+s.tagBg.Size.Width, 0.01, "the tag at the right edge")
	tx, _, tw, _ := spotBox(s.tag, caption, true)
	assert.True(t, tx >= s.tagBg.Pos.X && tx+tw <= s.tagBg.Pos.X+s.tagBg.Size.Width+0.01, "the tag's words on its pill")
	if s.key.Shown {
		kx, ky, kw, kh := spotBox(s.key, etcdLineSize*k, false)
		assertInFrame(t, s, "key", kx, ky, kw, kh)
		assert.Greater(t, kx, ox+ow, "the key after the client")
		assert.LessOrEqual(t, kx+kw, s.tagBg.Pos.X, "the key clear of the tag")
		assert.Equal(t, shortKey, strings.HasPrefix(s.key.Text, "…/"), "key %q", s.key.Text)
	}
	assert.Equal(t, row.kind == etcdRowKey, s.keyMono, "a key's name in monospace")
	switch row.kind {
	case etcdRowKey:
		assert.True(t, s.key.Shown, "a key row names its key")
	case etcdRowLease:
		assert.Equal(t, i18n.T("etcd.row.noKey"), s.key.Text, "a lease's row says it has no key")
	case etcdRowGone:
		assert.Equal(t, i18n.T("etcd.row.gone"), s.key.Text, "a waiter's row says its key is gone")
	}
}

// assertEtcdLeaseLine checks a row's lease at scale k, its words at
// caption: the lease, its bar and what is left left to right under the
// first line (leaseLine: a line of words), or a thin row's bar along its
// foot; the bar the lease's share of its track.
func assertEtcdLeaseLine(t *testing.T, s etcdRowSpots, row etcdRow, k, caption float32, small, leaseLine bool) {
	t.Helper()
	fp, fs := s.frame.Pos, s.frame.Size
	assert.Equal(t, leaseLine && row.lease != nil, s.lease.Shown, "the lease's words")
	assert.Equal(t, leaseLine && (row.lease != nil || row.kind == etcdRowKey), s.left.Shown, "what is left of it")
	assert.Equal(t, row.lease != nil, s.barBg.Shown, "a lease's bar")
	if s.lease.Shown {
		_, oy, _, oh := spotBox(s.owner, etcdLineSize*k, true)
		lx, ly, lw, lh := spotBox(s.lease, caption, false)
		assertInFrame(t, s, "lease", lx, ly, lw, lh)
		assert.Greater(t, ly, oy+oh*0.9, "the lease under the first line")
		assert.Greater(t, s.barBg.Pos.X, lx+lw, "the bar after the lease")
		assert.InDelta(t, ly+etcdBarY*k, s.barBg.Pos.Y, 0.01, "on its line")
		ex, _, ew, eh := spotBox(s.left, caption, false)
		assert.Greater(t, ex, s.barBg.Pos.X+s.barBg.Size.Width, "what is left after the bar")
		assertInFrame(t, s, "left", ex, ly, ew, eh)
	}
	if s.bar.Shown {
		assert.InDelta(t, LeaseFraction(*row.lease)*s.barBg.Size.Width, s.bar.Size.Width, 0.01, "the bar the lease's share of its track")
		assert.Equal(t, s.barBg.Pos, s.bar.Pos)
	}
	if small && s.barBg.Shown {
		assert.InDelta(t, fp.Y+fs.Height-etcdSlimBarRise*k, s.barBg.Pos.Y, 0.01, "a thin row's bar along its foot")
	}
}
