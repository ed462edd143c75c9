package etcd

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/widgets"
)

// etcdRowObjects are the canvas objects of one row, made once and reused.
type etcdRowObjects struct {
	frame, revBg, tagBg, barBg, bar   *canvas.Rectangle
	rev, key, owner, tag, lease, left *canvas.Text
}

// newEtcdRowObjects makes a row's objects, its small print at size caption.
func newEtcdRowObjects(caption float32) *etcdRowObjects {
	o := &etcdRowObjects{
		frame: &canvas.Rectangle{CornerRadius: 5}, revBg: &canvas.Rectangle{CornerRadius: 3},
		tagBg: &canvas.Rectangle{CornerRadius: 3}, barBg: &canvas.Rectangle{CornerRadius: 2},
		bar: &canvas.Rectangle{CornerRadius: 2},
		rev: widgets.NewText(etcdSmallSize, true), key: widgets.NewText(etcdLineSize, false), owner: widgets.NewText(etcdLineSize, true),
		tag: widgets.NewText(caption, true), lease: widgets.NewText(caption, false), left: widgets.NewText(caption, false),
	}
	o.key.TextStyle = fyne.TextStyle{Monospace: true}
	return o
}

// resize gives the row's words their sizes: the picture's own at k (its
// lengths' unit, etcdGeometry.k), its small print caption.
func (o *etcdRowObjects) resize(k, caption float32) {
	widgets.ResizeTexts(k, map[*canvas.Text]float32{o.rev: etcdSmallSize, o.key: etcdLineSize, o.owner: etcdLineSize})
	widgets.ResizeTextsTo(caption, o.tag, o.lease, o.left)
}

func (o *etcdRowObjects) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.frame, o.revBg, o.rev, o.key, o.owner, o.tagBg, o.tag, o.lease, o.barBg, o.bar, o.left}
}

// etcdRowSpots is where a row's parts go: its frame; on its first line the
// create revision's pill, the client, the key and the tag's pill on the
// right; on its second the lease, its TTL bar and the time left (a thin
// row has the bar alone, along its foot). Its words are at the sizes
// etcdRowObjects.resize gives them.
type etcdRowSpots struct {
	frame, revBg, tagBg, barBg, bar   widgets.RectSpot
	rev, key, owner, tag, lease, left widgets.TextSpot
	keyMono                           bool // the key is a key's name, in monospace, not a remark
}

// etcdRowGeometry is where row's parts go with its top at y, the rows
// laid out by g, the picture width wide, its small print at size caption,
// in th's colours fg and muted.
func etcdRowGeometry(row etcdRow, y float32, g etcdGeometry, width, caption float32, th fyne.Theme, fg, muted color.Color) etcdRowSpots {
	var s etcdRowSpots
	k := g.k
	x0 := g.gutter
	w := max(width-x0, etcdRowLeast*g.em)
	fill, stroke, sw := widgets.Fade(widgets.ColorServerLink, 0.07), widgets.Fade(widgets.ColorServerLink, 0.45), k
	switch {
	case row.owner:
		fill, stroke, sw = widgets.Fade(widgets.ColorHolding, 0.22), widgets.ColorHolding, 2.5*k
	case row.kind == etcdRowGone:
		fill, stroke = widgets.Fade(widgets.ColorIdle, 0.12), widgets.Fade(widgets.ColorIdle, 0.7)
	}
	s.frame = widgets.BoxAt(fyne.NewPos(x0, y), fyne.NewSize(w, g.rowH), fill, stroke, sw)
	s.firstLine(row, y, g, x0, w, caption, th, fg, muted)
	s.leaseLine(row, y, g, x0, w, caption, th, muted)
	return s
}

// firstLine lays out the row's first line from x0, w wide: create
// revision, client, key, and the tag saying what the client is doing.
// A key too long for its room is written as its lease ("…/694d…"), a
// remark too long left out.
func (s *etcdRowSpots) firstLine(row etcdRow, y float32, g etcdGeometry, x0, w, caption float32, th fyne.Theme, fg, muted color.Color) {
	k := g.k
	ty := y + etcdRowTextY*k
	if g.small {
		ty = y + etcdSlimTextY*k
	}
	x := x0 + etcdInset*k
	if row.kind == etcdRowKey {
		rev := i18n.F("etcd.rev", "rev", row.key.CreateRev)
		rw := widgets.TextWidth(rev, etcdSmallSize*k, true) + 2*etcdRevInset*k
		revFill := widgets.Fade(widgets.ColorServerLink, 0.8)
		if row.owner {
			revFill = widgets.ColorHolding
		}
		s.revBg = widgets.RectAt(fyne.NewPos(x, ty+etcdPillY*k), fyne.NewSize(rw, etcdPillH*k), revFill)
		s.rev = widgets.TextAt(rev, fyne.NewPos(x+etcdRevInset*k, ty+etcdPillY*k), color.White)
		x += rw + etcdRevGap*k
	}

	tag := etcdTagText(row.tag)
	tagFill, tagText := widgets.Fade(widgets.ColorWaiting, 0.28), color.Color(widgets.Readable(widgets.ColorWaiting, th))
	switch {
	case row.owner:
		tagFill, tagText = widgets.ColorHolding, color.White
	case row.kind == etcdRowLease || row.tag == "queued":
		tagFill, tagText = widgets.Fade(widgets.ColorIdle, 0.25), fg
	case row.kind == etcdRowGone && !strings.HasPrefix(row.tag, "waits") && !strings.HasPrefix(row.tag, "watches"):
		tagFill, tagText = widgets.Fade(widgets.ColorIdle, 0.25), fg
	}
	tw := widgets.TextWidth(tag, caption, true) + 2*etcdTagInset*k
	tagX := x0 + w - tw - etcdInset*k
	s.tagBg = widgets.RectAt(fyne.NewPos(tagX, ty+etcdPillY*k), fyne.NewSize(tw, etcdPillH*k), tagFill)
	s.tag = widgets.TextAt(tag, fyne.NewPos(tagX+etcdTagInset*k, ty+etcdPillY*k), tagText)

	ow := widgets.TextWidth(row.client, etcdLineSize*k, true)
	room := tagX - etcdKeyGap*k - ow - x
	var key string
	switch row.kind {
	case etcdRowKey:
		key = row.key.Key
		if widgets.TextWidth(key, etcdLineSize*k, false)*1.08 > room {
			key = "…/" + leaseHex(row.key.Lease)
		}
	case etcdRowLease:
		key = i18n.T("etcd.row.noKey")
	case etcdRowGone:
		key = i18n.T("etcd.row.gone")
	}
	s.keyMono = row.kind == etcdRowKey
	kc := fg
	if row.kind != etcdRowKey {
		kc = muted
	}
	if row.kind != etcdRowKey && widgets.TextWidth(key, etcdLineSize*k, false) > room {
		key = ""
	}
	s.owner = widgets.TextAt(row.client, fyne.NewPos(x, ty), fg)
	if key != "" {
		s.key = widgets.TextAt(key, fyne.NewPos(x+ow+etcdKeyGap*k, ty), kc)
	}
}

// leaseLine lays out the row's lease from x0, w wide: its id, TTL and
// keepalive period (or its id alone where the bar would be short), its
// bar and the time left; in a thin row the bar alone along the foot; for
// a key whose lease is gone, the line says so.
func (s *etcdRowSpots) leaseLine(row etcdRow, y float32, g etcdGeometry, x0, w, caption float32, th fyne.Theme, muted color.Color) {
	k := g.k
	l := row.lease
	if l == nil {
		if row.kind == etcdRowKey && !g.small {
			s.left = widgets.TextAt(i18n.F("etcd.lease.gone", "lease", leaseHex(row.key.Lease)), fyne.NewPos(x0+etcdInset*k, y+etcdLeaseY*k), muted)
		}
		return
	}
	barColor := widgets.ColorOwned
	f := LeaseFraction(*l)
	switch {
	case l.Frozen:
		barColor = widgets.ColorIdle
	case f < 0.2:
		barColor = widgets.ColorWaiting
	}
	if g.small {
		bw := w - 2*etcdInset*k
		s.barBg = widgets.RectAt(fyne.NewPos(x0+etcdInset*k, y+g.rowH-etcdSlimBarRise*k), fyne.NewSize(bw, etcdSlimBarH*k), widgets.Fade(widgets.ColorIdle, 0.25))
		s.bar = barSpot(fyne.NewPos(x0+etcdInset*k, y+g.rowH-etcdSlimBarRise*k), fyne.NewSize(bw*f, etcdSlimBarH*k), barColor)
		return
	}
	ly := y + etcdLeaseY*k
	lease := i18n.F("etcd.lease.line", "lease", leaseHex(l.ID), "ttl", widgets.ShortTime(l.TTL), "every", widgets.ShortTime(l.TTL/3))
	left := leaseLeftText(*l)
	lw := widgets.TextWidth(i18n.F("etcd.lease.left", "left", "00.000 s", "ttl", "00 s"), caption, false)
	lw = max(lw, widgets.TextWidth(left, caption, false))
	if x0+etcdInset*k+widgets.TextWidth(lease, caption, false)+etcdBarWant*k+lw+2*etcdBarGap*k > x0+w {
		lease = i18n.F("etcd.lease.short", "lease", leaseHex(l.ID))
	}
	s.lease = widgets.TextAt(lease, fyne.NewPos(x0+etcdInset*k, ly), muted)
	bx := x0 + etcdInset*k + widgets.TextWidth(lease, caption, false) + etcdBarGap*k
	bw := max(x0+w-etcdInset*k-lw-etcdBarGap*k-bx, etcdBarLeast*k)
	s.barBg = widgets.RectAt(fyne.NewPos(bx, ly+etcdBarY*k), fyne.NewSize(bw, etcdBarH*k), widgets.Fade(widgets.ColorIdle, 0.25))
	s.bar = barSpot(fyne.NewPos(bx, ly+etcdBarY*k), fyne.NewSize(bw*f, etcdBarH*k), barColor)
	lc := muted
	if l.Expired {
		lc = widgets.Readable(widgets.ColorViolation, th)
	}
	s.left = widgets.TextAt(left, fyne.NewPos(bx+bw+etcdBarGap*k, ly), lc)
}

// barSpot is a TTL bar's spot: none when nothing is left.
func barSpot(pos fyne.Position, size fyne.Size, c color.Color) widgets.RectSpot {
	if size.Width < 0.5 {
		return widgets.RectSpot{}
	}
	return widgets.RectAt(pos, size, c)
}

// place puts the row's objects where s says.
func (o *etcdRowObjects) place(s etcdRowSpots) {
	s.frame.Place(o.frame)
	s.revBg.Place(o.revBg)
	s.rev.Place(o.rev)
	s.tagBg.Place(o.tagBg)
	s.tag.Place(o.tag)
	o.key.TextStyle = fyne.TextStyle{Monospace: s.keyMono}
	s.owner.Place(o.owner)
	s.key.Place(o.key)
	s.lease.Place(o.lease)
	s.barBg.Place(o.barBg)
	s.bar.Place(o.bar)
	s.left.Place(o.left)
}
