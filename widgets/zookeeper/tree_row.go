package zookeeper

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	zookeepersim "github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets"
)

// zsessionObjects draw a session: the state pill, the id, the bar of
// time left and the timer in words.
type zsessionObjects struct {
	name, state, id, note *canvas.Text
	stateBg, barBg, bar   *canvas.Rectangle
	k                     float32 // the picture's scale (zkGeometry.k)
}

// resize gives the session's words their sizes: the picture's own at k
// (its lengths' unit, zkGeometry.k), its small print caption.
func (o *zsessionObjects) resize(k, caption float32) {
	o.k = k
	widgets.ResizeTexts(k, map[*canvas.Text]float32{o.name: zkNameSize, o.state: zkPillSize})
	widgets.ResizeTextsTo(caption, o.id, o.note)
}

// newZSessionObjects makes a session's objects, its small print at size
// caption.
func newZSessionObjects(caption float32) *zsessionObjects {
	return &zsessionObjects{k: 1, name: widgets.NewText(zkNameSize, true), state: widgets.NewText(zkPillSize, true), id: widgets.NewText(caption, false),
		note: widgets.NewText(caption, false), stateBg: &canvas.Rectangle{CornerRadius: 3},
		barBg: &canvas.Rectangle{CornerRadius: 2}, bar: &canvas.Rectangle{CornerRadius: 2}}
}

func (o *zsessionObjects) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.name, o.stateBg, o.state, o.id, o.barBg, o.bar, o.note}
}

// znodeObjects draw one child of the lock znode; its owner's session
// (the one that keeps the ephemeral znode alive) is drawn inside it.
type znodeObjects struct {
	zsessionObjects
	frame                           *canvas.Rectangle
	prefix, seq, eph, badge, remark *canvas.Text
	ephBg, badgeBg                  *canvas.Rectangle
}

// newZNodeObjects makes a child's objects, its small print at size caption.
func newZNodeObjects(caption float32) *znodeObjects {
	o := &znodeObjects{
		zsessionObjects: *newZSessionObjects(caption),
		frame:           &canvas.Rectangle{CornerRadius: 5},
		prefix:          widgets.NewText(caption, false),
		seq:             widgets.NewText(zkSeqSize, true),
		ephBg:           &canvas.Rectangle{CornerRadius: 3},
		eph:             widgets.NewText(zkPillSize, true),
		badgeBg:         &canvas.Rectangle{CornerRadius: 4},
		badge:           widgets.NewText(caption, true),
		remark:          widgets.NewText(caption, true),
	}
	return o
}

// resize gives the child's words their sizes: the picture's own at k, its
// small print caption.
func (o *znodeObjects) resize(k, caption float32) {
	o.zsessionObjects.resize(k, caption)
	widgets.ResizeTexts(k, map[*canvas.Text]float32{o.seq: zkSeqSize, o.eph: zkPillSize})
	widgets.ResizeTextsTo(caption, o.prefix, o.badge, o.remark)
}

func (o *znodeObjects) all() []fyne.CanvasObject {
	return append([]fyne.CanvasObject{o.frame, o.prefix, o.seq, o.ephBg, o.eph, o.badgeBg, o.badge, o.remark},
		o.zsessionObjects.all()...)
}

// zkPillLabel is what a session state's pill says.
func zkPillLabel(state string) string {
	if state == "" {
		return i18n.T("zk.noSession.pill")
	}
	return state
}

// zkPillSpots is where a session state's pill and its words go at pos,
// its lengths at scale k, its words at the state's text size
// (zsessionObjects.resize).
func zkPillSpots(state string, pos fyne.Position, k float32) (bg widgets.RectSpot, text widgets.TextSpot) {
	label := zkPillLabel(state)
	w := widgets.TextWidth(label, zkPillSize*k, true) + 2*zkPillInset*k
	ink := color.Color(color.White)
	if state == zookeepersim.SessionSuspended {
		ink = color.Black
	}
	return widgets.RectAt(pos, fyne.NewSize(w, zkPillH*k), SessionStateColor(state)),
		widgets.TextAt(label, pos.AddXY(zkPillInset*k, zkPillTextY*k), ink)
}

// placePill draws a session state's pill at pos, its lengths at scale k,
// and returns its width.
func placePill(bg *canvas.Rectangle, t *canvas.Text, state string, pos fyne.Position, k float32) float32 {
	b, s := zkPillSpots(state, pos, k)
	b.Place(bg)
	s.Place(t)
	return b.Size.Width
}

// zkTimerSpots is where a session's id, its bar of time left and its
// timer in words go.
type zkTimerSpots struct {
	id, note   widgets.TextSpot
	barBg, bar widgets.RectSpot
}

// zkTimerGeometry lays out client c's session (ok false: it has none)
// from x to limit on the line at y, its lengths at scale k and its words
// at size caption, lead and label before the timer and the id. Where the
// line is too short for all of it (a 1024-point window cut "expires in
// 6.000 s if silent · timeout 10 s" after "if silen…"), the timer leaves
// out the timeout, then the id its label ("session "), then the bar,
// before the words are shortened with "…".
func zkTimerGeometry(z *zookeepersim.View, c sim.NodeView, sess zookeepersim.ZSession, ok bool, lead, label string, x, y, limit, k, caption float32, fg, muted color.Color) zkTimerSpots {
	var s zkTimerSpots
	barW := zkSessionBarW * k
	idOf := func(label string) string {
		if !ok {
			return i18n.T("zk.noSession")
		}
		return fmt.Sprintf("%s%#x", label, sess.ID)
	}
	noteOf := func(short bool) string {
		text := lead
		if note := zkSessionNoteIn(z, c, sess, ok, short); note != "" && text != "" {
			text += " · " + note
		} else if note != "" {
			text = note
		}
		return text
	}
	// barAt is where the bar starts after the id.
	barAt := func(label string) float32 {
		return x + max(widgets.TextWidth(label+"0x000000000000000", caption, false), widgets.TextWidth(idOf(label), caption, false)) + zkSessionGap*k
	}
	var text string
	bar := ok
	for _, try := range []struct {
		label      string
		short, bar bool
	}{{label, false, ok}, {label, true, ok}, {"", true, ok}, {"", true, false}} {
		text, label, bar = noteOf(try.short), try.label, try.bar
		at := barAt(label)
		if bar {
			at += barW + zkSessionGap*k
		}
		if widgets.TextWidth(text, caption, false) <= limit-at {
			break
		}
	}
	s.id = widgets.TextAt(idOf(label), fyne.NewPos(x, y), muted)
	x = barAt(label)
	if bar {
		s.barBg = widgets.RectAt(fyne.NewPos(x, y+zkSessionBarY*k), fyne.NewSize(barW, zkSessionBarH*k), widgets.Fade(widgets.ColorIdle, 0.3))
		if f := zkSessionFraction(sess); f > 0 {
			bc := widgets.ColorOwned
			if f < 0.2 {
				bc = widgets.ColorWaiting
			}
			s.bar = widgets.RectAt(fyne.NewPos(x, y+zkSessionBarY*k), fyne.NewSize(barW*f, zkSessionBarH*k), bc)
		}
		x += barW + zkSessionGap*k
	}
	nc := muted
	if c.Session == zookeepersim.SessionSuspended || c.Session == zookeepersim.SessionLost || c.Paused || c.Crashed {
		nc = fg
	}
	s.note = widgets.TextAt(zkClip(text, limit-x, caption, false), fyne.NewPos(x, y), nc)
	return s
}

// placeTimer puts the session's id, bar and timer where s says.
func (o *zsessionObjects) placeTimer(s zkTimerSpots) {
	s.id.Place(o.id)
	s.barBg.Place(o.barBg)
	s.bar.Place(o.bar)
	s.note.Place(o.note)
}

// znodeSpots is where a child's parts go in its row: the frame; on its
// first line the guid prefix, the sequence number, the ephemeral pill, the
// owner, its session's pill, the remark on it and the badge on the right;
// on its second the owner's session timer (none in a slim row).
type znodeSpots struct {
	frame, ephBg, badgeBg, stateBg               widgets.RectSpot
	prefix, seq, eph, badge, name, state, remark widgets.TextSpot
	timer                                        zkTimerSpots
}

// zkRowLook is what a child's row is drawn with: the picture's scale k,
// the text's inset pad in a box, the small print's size caption and th's
// colours fg and muted.
type zkRowLook struct {
	k, pad, caption float32
	th              fyne.Theme
	fg, muted       color.Color
}

// znodeGeometry lays out child c, i-th among the waiters (after the holders), in its box b: owner
// is the client that owns it and sess, ok its session.
func znodeGeometry(z *zookeepersim.View, c zookeepersim.ZNode, i int, b rowBox, owner sim.NodeView, sess zookeepersim.ZSession, ok bool, l zkRowLook) znodeSpots {
	var s znodeSpots
	k := l.k
	fill, stroke, width := widgets.Fade(widgets.ColorWaiting, 0.07), widgets.Fade(widgets.ColorWaiting, 0.6), k
	if c.Holder {
		fill, stroke, width = widgets.Fade(widgets.ColorHolding, 0.18), widgets.ColorHolding, 2.5*k
	}
	s.frame = widgets.BoxAt(b.pos, b.size, fill, stroke, width)

	slim := b.size.Height < zkRowH*k
	ty := b.pos.Y + zkRowTextY*k
	if slim {
		ty = b.pos.Y + (b.size.Height-zkBadgeH*k)/2
	}
	end := s.badgeSpots(c, i, owner.Candidate, b.pos.X+b.size.Width-l.pad, ty, l)
	x, remark, rw := s.firstLine(c, owner, b.pos.X+l.pad, end, ty, l)

	// The remark on the owner goes on the first line when it fits there,
	// else at the end of the second.
	dy := b.pos.Y + zkSessionLineY*k
	limit := b.pos.X + b.size.Width - l.pad
	switch {
	case remark == "":
	case x+rw <= end:
		s.remark = widgets.TextAt(remark, fyne.NewPos(end-rw, ty+zkBadgeTextY*k), l.fg)
	case !slim:
		s.remark = widgets.TextAt(remark, fyne.NewPos(limit-rw, dy), l.fg)
		limit -= rw + zkWordGap*k
	}
	if !slim {
		s.timer = zkTimerGeometry(z, owner, sess, ok, "", i18n.T("zk.sessionLabel")+" ", b.pos.X+l.pad, dy, limit, k, l.caption, l.fg, l.muted)
	}
	return s
}

// badgeSpots lays out the badge ending at end on the line at ty: HOLDER
// (LEADER for a candidate of LeaderLatch), or the child's place in the
// queue. It returns where the words before it must end.
func (s *znodeSpots) badgeSpots(c zookeepersim.ZNode, i int, candidate bool, end, ty float32, l zkRowLook) float32 {
	k := l.k
	badge := i18n.F("zk.inLine", "ordinal", zkOrdinal(i))
	switch {
	case c.Holder && c.Read:
		badge = i18n.F("zk.readHolder", "seq", c.Seq)
	case c.Holder:
		badge = i18n.F(widgets.LeaderWords("zk.holder", candidate), "seq", c.Seq)
	}
	bw := widgets.TextWidth(badge, l.caption, true) + 2*zkBadgeInset*k
	bpos := fyne.NewPos(end-bw, ty)
	if c.Holder {
		s.badgeBg = widgets.RectAt(bpos, fyne.NewSize(bw, zkBadgeH*k), widgets.ColorHolding)
		s.badge = widgets.TextAt(badge, bpos.AddXY(zkBadgeInset*k, zkBadgeTextY*k), color.White)
	} else {
		s.badgeBg = widgets.BoxAt(bpos, fyne.NewSize(bw, zkBadgeH*k), color.Transparent, widgets.Fade(widgets.ColorWaiting, 0.8), k)
		s.badge = widgets.TextAt(badge, bpos.AddXY(zkBadgeInset*k, zkBadgeTextY*k), widgets.Readable(widgets.ColorWaiting, l.th))
	}
	return bpos.X - zkBadgeGap*k
}

// firstLine lays out the child's name and its owner from x to end on the
// line at ty: the guid prefix, the sequence number, the ephemeral pill,
// the owner and its session's pill. When narrow, the guid prefix goes
// first (so that the remark on the owner fits), then the ephemeral pill.
// It returns where the line's words end, and the remark on the owner and
// its width.
func (s *znodeSpots) firstLine(c zookeepersim.ZNode, owner sim.NodeView, x, end, ty float32, l zkRowLook) (float32, string, float32) {
	k := l.k
	prefix, seq := zkShortName(c.Name)
	pw := widgets.TextWidth(prefix, l.caption, false)
	nw := widgets.TextWidth(seq, zkSeqSize*k, true)
	ephText := i18n.T("zk.ephemeral")
	if !c.Ephemeral {
		ephText = i18n.T("zk.persistent")
	}
	ew := widgets.TextWidth(ephText, zkPillSize*k, true) + 2*zkPillInset*k
	ow := widgets.TextWidth(c.Owner, zkNameSize*k, true)
	sw := widgets.TextWidth(zkPillLabel(owner.Session), zkPillSize*k, true) + 2*zkPillInset*k
	remark := zkOwnerNote(c, owner)
	rw := widgets.TextWidth(remark, l.caption, true)
	rest := nw + zkWordGap*k + ow + zkOwnerGap*k + sw
	showPrefix := prefix != "" && x+pw+ew+zkWordGap*k+rest+rw+zkWordGap*k <= end
	showEph := x+ew+zkWordGap*k+rest <= end
	if showPrefix {
		s.prefix = widgets.TextAt(prefix, fyne.NewPos(x, ty+zkSmallTextY*k), l.muted)
		x += pw
	}
	s.seq = widgets.TextAt(seq, fyne.NewPos(x, ty), l.fg)
	x += nw + zkWordGap*k
	if showEph {
		s.ephBg = widgets.RectAt(fyne.NewPos(x, ty+zkPillY*k), fyne.NewSize(ew, zkPillH*k), widgets.Fade(widgets.ColorServerLink, 0.85))
		s.eph = widgets.TextAt(ephText, fyne.NewPos(x+zkPillInset*k, ty+zkSmallTextY*k), color.White)
		x += ew + zkWordGap*k
	}
	ownerColor := l.fg
	if owner.Client {
		ownerColor = widgets.Readable(widgets.StateColor(owner.State), l.th)
	}
	s.name = widgets.TextAt(zkClip(c.Owner, end-x, zkNameSize*k, true), fyne.NewPos(x, ty+zkOwnerY*k), ownerColor)
	x += ow + zkOwnerGap*k
	if x+sw <= end {
		s.stateBg, s.state = zkPillSpots(owner.Session, fyne.NewPos(x, ty+zkPillY*k), k)
		x += sw + zkWordGap*k
	}
	return x, remark, rw
}

// place puts the child's objects where s says.
func (o *znodeObjects) place(s znodeSpots) {
	s.frame.Place(o.frame)
	s.badgeBg.Place(o.badgeBg)
	s.badge.Place(o.badge)
	s.prefix.Place(o.prefix)
	s.seq.Place(o.seq)
	s.ephBg.Place(o.ephBg)
	s.eph.Place(o.eph)
	s.name.Place(o.name)
	s.stateBg.Place(o.stateBg)
	s.state.Place(o.state)
	s.remark.Place(o.remark)
	o.placeTimer(s.timer)
}
