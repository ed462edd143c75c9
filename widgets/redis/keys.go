// Package redis is the Redis lock's side of the window, one folder as its
// simulation is (sim/redis): its state picture (Keys: the lock key on each
// server with its TTL bar), its tab (tab.go: the sliders and toggles only
// it shows, its protocol lines), registered with designtab from init and
// imported once by widgets/designs.
package redis

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/widgets"
)

// Keys is the lock-key picture of Redis servers: for each server its
// role, the lock key with the owner's random value, the fencing counter and
// a TTL bar that counts down by the server's own clock and jumps back when
// a watchdog renews the key. Redlock shows its N masters with it too.
type Keys struct {
	widget.BaseWidget

	servers []redissim.RedisServerView
	nodes   []sim.NodeView
	master  int
	widgets.OnShow
}

// NewKeys returns an empty key picture; SetSnapshot or SetServers
// fills it.
func NewKeys() *Keys {
	k := &Keys{master: -1}
	k.ExtendBaseWidget(k)
	return k
}

// SetSnapshot shows the Redis view of a snapshot (mode "redis").
func (k *Keys) SetSnapshot(s *sim.Snapshot) {
	// A new instant has something new: the cards' clocks and TTLs move.
	if !k.Take(s) {
		return
	}
	v := redissim.ViewOf(s)
	if v == nil {
		k.SetServers(nil, nil, -1)
		return
	}
	k.SetServers(v.Servers, s.Nodes, v.Master)
}

// SetServers shows the given servers; nodes resolves their names and
// clocks, and master (an index into nodes, −1 for none) is marked as the
// server clients talk to.
func (k *Keys) SetServers(servers []redissim.RedisServerView, nodes []sim.NodeView, master int) {
	k.servers, k.nodes, k.master = servers, nodes, master
	k.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (k *Keys) CreateRenderer() fyne.WidgetRenderer {
	r := &keysRenderer{k: k,
		cards: widgets.NewPool(func() *cardObjects {
			return &cardObjects{frame: &canvas.Rectangle{CornerRadius: 6}, title: widgets.NewText(13, true),
				role: widgets.NewText(11.5, true), roleBg: &canvas.Rectangle{CornerRadius: 4}, counter: widgets.NewText(11.5, false),
				clock: widgets.NewText(11, false), note: widgets.NewText(12, false)}
		}, (*cardObjects).all),
		keys: widgets.NewPool(func() *keyObjects {
			return &keyObjects{line: widgets.NewText(12.5, false), barBg: &canvas.Rectangle{CornerRadius: 3},
				bar: &canvas.Rectangle{CornerRadius: 3}, left: widgets.NewText(11.5, false), deadline: widgets.NewText(11, false)}
		}, (*keyObjects).all),
	}
	r.pools = widgets.Pools{r.cards, r.keys}
	r.Refresh()
	return r
}

type cardObjects struct {
	frame                      *canvas.Rectangle
	title, role, counter, note *canvas.Text
	roleBg                     *canvas.Rectangle
	clock                      *canvas.Text
}

func (o *cardObjects) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.frame, o.roleBg, o.title, o.role, o.counter, o.clock, o.note}
}

type keyObjects struct {
	line, left, deadline *canvas.Text
	barBg, bar           *canvas.Rectangle
}

func (o *keyObjects) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.line, o.barBg, o.bar, o.left, o.deadline}
}

type keysRenderer struct {
	k *Keys
	// refreshes counts redraws, so a test can tell one that was not needed.
	refreshes int
	cards     *widgets.Pool[*cardObjects]
	keys      *widgets.Pool[*keyObjects]
	pools     widgets.Pools
	objects   []fyne.CanvasObject
}

func (r *keysRenderer) Destroy() {}

func (r *keysRenderer) Layout(fyne.Size) { r.Refresh() }

func (r *keysRenderer) MinSize() fyne.Size { return fyne.NewSize(300, 100) }

func (r *keysRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Layout constants of a server card.
const (
	cardPad     = 10
	cardGap     = 8
	cardHeadH   = 24
	keyRowH     = 62
	barH        = 12
	cardMaxBody = 2 * keyRowH
)

func (r *keysRenderer) Refresh() {
	r.refreshes++
	r.pools.Reset()
	r.draw()
	if objs := r.pools.Finish(); objs != nil {
		r.objects = objs
		widgets.Repaint(r.k)
	}
}

func (r *keysRenderer) draw() {
	k := r.k
	if len(k.servers) == 0 {
		return
	}
	th := k.Theme()
	fg := widgets.ThemeColor(th, theme.ColorNameForeground)
	muted := widgets.ThemeColor(th, theme.ColorNamePlaceHolder)
	size := k.Size()
	n := float32(len(k.servers))
	cardH := min((size.Height-(n-1)*cardGap)/n, cardHeadH+cardMaxBody+cardPad)
	y := float32(0)
	for _, sv := range k.servers {
		var node sim.NodeView
		if sv.Node >= 0 && sv.Node < len(k.nodes) {
			node = k.nodes[sv.Node]
		}
		c := r.cards.Next()
		fill := widgets.Fade(widgets.ColorServerLink, 0.08)
		stroke := widgets.Fade(widgets.ColorServerLink, 0.6)
		if node.Crashed {
			fill, stroke = widgets.Fade(widgets.ColorIdle, 0.18), widgets.ColorIdle
		}
		width := float32(1)
		if sv.Node == k.master && len(k.servers) > 1 {
			width = 2.5
		}
		widgets.PlaceBox(c.frame, fyne.NewPos(0, y), fyne.NewSize(size.Width, cardH), fill, stroke, width)

		x := float32(cardPad)
		widgets.PlaceText(c.title, node.Name, fyne.NewPos(x, y+6), fg)
		x += c.title.MinSize().Width + 8
		role := i18n.Term(sv.Role)
		if sv.Node == k.master && len(k.servers) > 1 {
			role = i18n.F("keys.roleInUse", "role", role)
		}
		rw := widgets.TextWidth(role, c.role.TextSize, true) + 10
		widgets.PlaceRect(c.roleBg, fyne.NewPos(x, y+7), fyne.NewSize(rw, 17), widgets.Fade(widgets.ColorServerLink, 0.85))
		widgets.PlaceText(c.role, role, fyne.NewPos(x+5, y+8), color.White)

		counter := i18n.F("keys.counter", "n", sv.Counter)
		cw := widgets.TextWidth(counter, c.counter.TextSize, false)
		widgets.PlaceText(c.counter, counter, fyne.NewPos(size.Width-cardPad-cw, y+8), fg)
		clock := i18n.F("cluster.clock", "t", widgets.FormatTime(node.Wall))
		if x+rw+16+widgets.TextWidth(clock, c.clock.TextSize, false) < size.Width-cardPad-cw-12 {
			widgets.PlaceText(c.clock, clock, fyne.NewPos(x+rw+12, y+9), muted)
		} else {
			c.clock.Hide()
		}

		body := y + cardHeadH + 4
		switch {
		case node.Crashed:
			widgets.PlaceText(c.note, i18n.T("keys.down"), fyne.NewPos(cardPad, body+4), fg)
		case len(sv.Keys) == 0:
			widgets.PlaceText(c.note, i18n.F("keys.free", "key", redissim.LockKey), fyne.NewPos(cardPad, body+4), muted)
		default:
			c.note.Hide()
			for _, kv := range sv.Keys {
				if body+keyRowH > y+cardH+4 {
					break
				}
				r.drawKey(r.keys.Next(), kv, node, body, size.Width, fg, muted)
				body += keyRowH
			}
		}
		y += cardH + cardGap
	}
}

// TTLFraction is the share of a key's TTL still left, 0 to 1, by the
// server's clock: the length of its TTL bar.
func TTLFraction(kv redissim.KeyView) float32 {
	if kv.TTL <= 0 || kv.Left <= 0 {
		return 0
	}
	return float32(min(1, float64(kv.Left)/float64(kv.TTL)))
}

func (r *keysRenderer) drawKey(o *keyObjects, kv redissim.KeyView, node sim.NodeView, y, width float32, fg, muted color.Color) {
	line := i18n.F("keys.line", "key", kv.Key, "value", strconv.Quote(kv.Value), "owner", kv.Owner)
	widgets.PlaceText(o.line, line, fyne.NewPos(cardPad, y), fg)

	left := i18n.F("keys.left", "left", widgets.FormatTime(kv.Left), "ttl", widgets.FormatTime(kv.TTL))
	if kv.Expired {
		left = i18n.T("keys.expired")
	}
	lw := widgets.TextWidth(i18n.F("keys.left", "left", "00.000 s", "ttl", "00.000 s"), o.left.TextSize, false)
	barW := max(width-2*cardPad-lw-10, 40)
	by := y + 20
	widgets.PlaceRect(o.barBg, fyne.NewPos(cardPad, by), fyne.NewSize(barW, barH), widgets.Fade(widgets.ColorIdle, 0.25))
	f := TTLFraction(kv)
	if f > 0 {
		c := widgets.ColorOwned
		if f < 0.2 {
			c = widgets.ColorWaiting
		}
		widgets.PlaceRect(o.bar, fyne.NewPos(cardPad, by), fyne.NewSize(barW*f, barH), c)
	} else {
		o.bar.Hide()
	}
	widgets.PlaceText(o.left, left, fyne.NewPos(cardPad+barW+10, by-2), muted)
	deadline := i18n.F("keys.deadline", "px", kv.TTL.Milliseconds(), "node", node.Name, "t", widgets.FormatTime(node.Wall+kv.Left))
	widgets.PlaceText(o.deadline, deadline, fyne.NewPos(cardPad, by+barH+4), muted)
}
