package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// sliderControl is one parameter slider with its value read-out.
type sliderControl struct {
	spec   designtab.SliderSpec
	slider *widgets.TipSlider
	value  *widget.Label
	cell   fyne.CanvasObject // its cell in the tab's bar: name, track and value
}

// set moves the slider to value x, as a drag there would.
func (c *sliderControl) set(x float64) { c.slider.SetValue(c.spec.Position(x)) }

// current is the value the slider stands at.
func (c *sliderControl) current() float64 { return c.spec.ValueAt(c.slider.Value) }

// controls are a tab's toggles and parameter sliders: moving one edits
// the scenario and records it again; they follow the scenario in effect
// at the cursor.
type controls struct {
	tab *tabView

	sliders []*sliderControl
	toggles map[string]*widgets.TipCheck
	choices map[string]*widgets.TipSelect // the toggles that are a choice among values
	at      *sim.Scenario                 // what the controls show: Effective at their last sync
	syncing bool                          // the controls are being set from the scenario: ignore their callbacks
	// shownFor is the name of the scenario the sliders on show were
	// chosen for (showWhatIsUsed).
	shownFor string
}

// sliderMinWidth is the shortest a slider's track gets in a crowded row:
// still a track to drag along (its knob is about 20 points), and short
// enough that ZooKeeper's and etcd's five slider cells share one row at
// 1024 points, so their toolbars take three rows there, not four, and the
// timeline has that row's room for its lanes (at 80 the last cell wrapped).
const sliderMinWidth = 64

// newControls builds a tab's toggles and sliders.
func newControls(v *tabView) *controls {
	c := &controls{tab: v, toggles: map[string]*widgets.TipCheck{}, choices: map[string]*widgets.TipSelect{}}
	for _, key := range v.spec.Toggles {
		spec := v.spec.Toggle(key)
		if spec.IsChoice() {
			names := make([]string, len(spec.Values))
			for i, x := range spec.Values {
				names[i] = spec.ValueName(x)
			}
			sel := widgets.NewTipSelect(names, nil, v.tips, spec.Tip())
			sel.OnChanged = func(name string) { c.choose(spec, spec.ValueOf(name)) }
			c.choices[key] = sel
			continue
		}
		ch := widgets.NewTipCheck(spec.Name(), nil, v.tips, spec.Tip())
		ch.OnChanged = func(on bool) { c.toggle(spec, ch, on) }
		c.toggles[key] = ch
	}
	for _, key := range v.spec.Sliders {
		spec := v.spec.Slider(key)
		sc := &sliderControl{spec: spec,
			slider: widgets.NewTipSlider(spec.Position(spec.Min), spec.Position(spec.Max), v.tips, spec.Tip()),
			value:  widget.NewLabel("")}
		sc.slider.Step = spec.TrackStep()
		sc.slider.OnChanged = func(p float64) { c.slide(sc, spec.ValueAt(p)) }
		sc.slider.OnChangeEnded = func(float64) { v.unfocus() }
		c.sliders = append(c.sliders, sc)
	}
	return c
}

// toggleCells are the toggles for the tab's bar, in the tab's order.
func (c *controls) toggleCells() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, key := range c.tab.spec.Toggles {
		if sel, ok := c.choices[key]; ok {
			out = append(out, sel)
			continue
		}
		out = append(out, c.toggles[key])
	}
	return out
}

// sliderCells are the sliders for the tab's bar, a cell each: its name,
// its track and its value.
func (c *controls) sliderCells() []fyne.CanvasObject {
	fixed := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
	}
	var out []fyne.CanvasObject
	for _, sc := range c.sliders {
		name := widget.NewLabelWithStyle(sc.spec.Name(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		width := float32(56)
		if sc.spec.Widest != nil {
			pad := 2 * theme.InnerPadding()
			width = max(width, fyne.MeasureText(sc.spec.Widest(), theme.TextSize(), fyne.TextStyle{}).Width+pad)
		}
		cell := container.NewBorder(nil, nil, name, fixed(width, sc.value), atLeast(sliderMinWidth, sc.slider))
		sc.cell = stretch(cell, 360)
		out = append(out, sc.cell)
	}
	return out
}

// sync sets every control from sc without acting on it.
func (c *controls) sync(sc *sim.Scenario) {
	c.syncing = true
	defer func() { c.syncing = false }()
	c.showWhatIsUsed(sc)
	for _, s := range c.sliders {
		x, ok := s.spec.Value(sc)
		if ok {
			s.slider.Enable()
			s.slider.SetValue(s.spec.Position(x))
			s.value.SetText(s.spec.Text(sc, x))
		} else {
			s.slider.Disable()
			s.value.SetText(i18n.T("slider.none"))
		}
	}
	for key, sel := range c.choices {
		spec := c.tab.spec.Toggle(key)
		sel.SetSelected(spec.ValueName(spec.Choice(sc)))
		if why := spec.DisabledWhy(sc); why != "" {
			sel.Disable()
			sel.SetTip(why)
		} else if sel.Disabled() {
			sel.Enable()
			sel.SetTip(spec.Tip())
		}
	}
	for key, ch := range c.toggles {
		spec := c.tab.spec.Toggle(key)
		ch.SetChecked(spec.Value(sc))
		if why := spec.DisabledWhy(sc); why != "" {
			ch.Disable()
			ch.SetTip(why)
		} else if ch.Disabled() {
			ch.Enable()
			ch.SetTip(spec.Tip())
		}
	}
}

// showWhatIsUsed puts on show the sliders a design shows only for the
// scenarios that use them (SliderSpec.Shown), and takes one away only
// when another scenario (another name: a preset, a file) is loaded; the
// tab's bar flows again when one comes or goes.
func (c *controls) showWhatIsUsed(sc *sim.Scenario) {
	changed := false
	for _, s := range c.sliders {
		if s.spec.Shown == nil || s.cell == nil {
			continue
		}
		show := s.spec.Shown(sc) || (s.cell.Visible() && sc.Name == c.shownFor)
		if show != s.cell.Visible() {
			changed = true
			if show {
				s.cell.Show()
			} else {
				s.cell.Hide()
			}
		}
	}
	c.shownFor = sc.Name
	if changed && c.tab.content != nil {
		c.tab.content.Refresh()
	}
}

// showRun notes what a new recording's controls were synced to.
func (c *controls) showRun() { c.at = c.tab.ctl.Effective() }

// follow puts the controls on the values in effect when the cursor
// crosses a control change recorded in the scenario.
func (c *controls) follow() {
	if eff := c.tab.ctl.Effective(); eff != c.at {
		c.at = eff
		c.tab.syncControls()
	}
}

func (c *controls) slide(s *sliderControl, x float64) {
	s.value.SetText(s.spec.Format(x))
	if c.syncing {
		return
	}
	v := c.tab
	if old, ok := s.spec.Value(v.ctl.Effective()); ok && old == x {
		return
	}
	if err := v.ctl.SetControl(s.spec.Name()+" "+s.spec.Format(x), func(sc *sim.Scenario) { s.spec.Apply(sc, x) }); err != nil {
		v.fail(err)
		return
	}
	v.showRun()
}

func (c *controls) toggle(spec designtab.ToggleSpec, ch *widgets.TipCheck, on bool) {
	if c.syncing {
		return
	}
	v := c.tab
	v.unfocus()
	what := i18n.F("toggle.off", "name", spec.Name())
	if on {
		what = i18n.F("toggle.on", "name", spec.Name())
	}
	if err := v.ctl.SetControl(what, func(sc *sim.Scenario) { spec.Apply(sc, on) }); err != nil {
		v.fail(err)
		return
	}
	v.showRun()
}

// choose sets a choice's value, as picking it in its select does.
func (c *controls) choose(spec designtab.ToggleSpec, x string) {
	if c.syncing || x == "" {
		return
	}
	v := c.tab
	v.unfocus()
	if spec.Choice(v.ctl.Effective()) == x {
		return
	}
	what := i18n.F("toggle.chosen", "name", spec.Name(), "value", spec.ValueName(x))
	if err := v.ctl.SetControl(what, func(sc *sim.Scenario) { spec.Choose(sc, x) }); err != nil {
		v.fail(err)
		return
	}
	v.showRun()
}
