package app

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/widgets"
)

// toolbar is a tab's transport (play, step, +Δt, back, reset), its speed
// control and its preset picker: their widgets, and keeping them on the
// controller's state without acting on it.
type toolbar struct {
	tab *tabView

	play, step, back, reset *widgets.TipButton
	delta                   *widgets.TipButton // +Δt
	speed                   *widgets.TipSelect // the speed control's named stops (Speeds)
	presets                 *widgets.TipSelect
	presetSlugs             []string // the presets' file names, in the order of presets.Options

	syncing bool // the speed or the picker is being set from the controller: ignore their callbacks
}

// newToolbar builds a tab's toolbar widgets; the transport's buttons act
// on the tab.
func newToolbar(v *tabView) *toolbar {
	b := &toolbar{tab: v}
	b.play = widgets.NewTipButton(i18n.T("toolbar.play"), theme.MediaPlayIcon(), v.togglePlay, v.tips, "toolbar.play.tip")
	b.step = widgets.NewTipButton(i18n.T("toolbar.step"), theme.MediaSkipNextIcon(), v.stepForward, v.tips, "toolbar.step.tip")
	b.delta = widgets.NewTipButton(i18n.T("toolbar.delta"), nil, v.stepDelta, v.tips, "toolbar.delta.tip")
	b.back = widgets.NewTipButton(i18n.T("toolbar.back"), theme.MediaSkipPreviousIcon(), v.stepBack, v.tips, "toolbar.back.tip")
	b.reset = widgets.NewTipButton(i18n.T("toolbar.reset"), theme.MediaReplayIcon(), v.rewind, v.tips, "toolbar.reset.tip")

	var speedNames []string
	for _, sp := range Speeds {
		speedNames = append(speedNames, sp.Name())
	}
	b.speed = widgets.NewTipSelect(speedNames, func(name string) {
		if i := slices.Index(speedNames, name); i >= 0 && !b.syncing {
			v.ctl.SetSpeed(Speeds[i])
			v.unfocus()
			v.show()
		}
	}, v.tips, "toolbar.speed.tip")
	b.syncSpeed()

	b.presetSlugs = assets.PresetsFor(v.spec.Mode)
	var presetOptions []string
	for _, slug := range b.presetSlugs {
		presetOptions = append(presetOptions, PresetOption(slug))
	}
	b.presets = widgets.NewTipSelect(presetOptions, b.choosePreset, v.tips, "toolbar.preset.tip")
	b.presets.PlaceHolder = i18n.T("toolbar.preset.edited")
	return b
}

// groups are the toolbar's groups for the tab's bar, each kept whole: the
// transport, the speed, the preset.
func (b *toolbar) groups() []fyne.CanvasObject {
	bold := func(key string) *widget.Label {
		return widget.NewLabelWithStyle(i18n.T(key), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	return []fyne.CanvasObject{
		container.NewHBox(b.play, b.step, b.delta, b.back, b.reset),
		container.NewHBox(bold("toolbar.speed"), atLeast(150, b.speed)),
		container.NewHBox(bold("toolbar.preset"), stretch(widthOf(220, b.presets), 360)),
	}
}

// showRun follows a new recording: the +Δt button's tip names its step.
func (b *toolbar) showRun() {
	b.delta.SetTip(i18n.F("toolbar.delta.tip", "t", widgets.FormatTime(b.tab.ctl.DeltaT())))
}

// showPlaying makes the play button say what it would do: Pause while
// the run plays, Play when it does not.
func (b *toolbar) showPlaying() {
	playing := b.tab.ctl.Playing()
	switch {
	case playing && b.play.Text != i18n.T("toolbar.pause"):
		b.play.SetText(i18n.T("toolbar.pause"))
		b.play.SetIcon(theme.MediaPauseIcon())
	case !playing && b.play.Text != i18n.T("toolbar.play"):
		b.play.SetText(i18n.T("toolbar.play"))
		b.play.SetIcon(theme.MediaPlayIcon())
	}
}

// syncSpeed puts the speed control at the controller's stop without
// acting on it.
func (b *toolbar) syncSpeed() {
	name := b.tab.ctl.Speed().Name()
	if b.speed.Selected == name {
		return
	}
	was := b.syncing
	b.syncing = true
	b.speed.SetSelected(name)
	b.syncing = was
}

// syncPreset sets the picker from the run on show without acting on it.
// An edited preset is not the preset: the picker shows the run's name
// with its edited mark, as the title and the status line do (choosing
// the preset again loads it as it was).
func (b *toolbar) syncPreset() {
	b.syncing = true
	defer func() { b.syncing = false }()
	ctl := b.tab.ctl
	o := b.presetOptionOf(ctl.Origin())
	if ctl.Edited() {
		o = ""
	}
	if o == "" {
		b.presets.PlaceHolder = b.pickerTitle()
	}
	if b.presets.Selected != o {
		if o != "" {
			b.presets.SetSelected(o)
		} else {
			b.presets.ClearSelected()
		}
	} else if o == "" {
		b.presets.Refresh()
	}
}

// pickerTitle is what the preset picker shows for a run that is not one of
// the tab's presets as shipped: its name and edited mark, with the preset's
// file name after it when it is one edited.
func (b *toolbar) pickerTitle() string {
	ctl := b.tab.ctl
	if !ctl.Loaded() {
		return i18n.T("toolbar.preset.edited")
	}
	if b.presetOptionOf(ctl.Origin()) != "" {
		return i18n.F("toolbar.preset.option", "title", ctl.Title(), "slug", ctl.Origin())
	}
	return ctl.Title()
}

// PresetOption is how the preset picker shows a preset: its title in the
// reader's language, then its file name as the detail.
func PresetOption(slug string) string {
	if key := "preset." + slug; i18n.Has(i18n.English, key) {
		return i18n.F("toolbar.preset.option", "title", i18n.T(key), "slug", slug)
	}
	return slug
}

// presetOptionOf is the picker's option of the preset named slug, "" when
// slug is not one of the tab's presets (a file, an edit, a map cell).
func (b *toolbar) presetOptionOf(slug string) string {
	for i, s := range b.presetSlugs {
		if s == slug {
			return b.presets.Options[i]
		}
	}
	return ""
}

// selectPreset loads the tab's preset named slug through its picker, as a
// person choosing it would.
func (b *toolbar) selectPreset(slug string) {
	if o := b.presetOptionOf(slug); o != "" {
		b.presets.SetSelected(o)
	}
}

// choosePreset loads the preset of a picker's option.
func (b *toolbar) choosePreset(option string) {
	if b.syncing || option == "" {
		return
	}
	i := slices.Index(b.presets.Options, option)
	if i < 0 {
		return
	}
	v := b.tab
	v.unfocus()
	v.stopTicker()
	if err := v.ctl.LoadPreset(b.presetSlugs[i]); err != nil {
		v.fail(err)
		return
	}
	v.showRun()
}

// stepPreset loads the next (or previous) preset of the tab's mode,
// wrapping around; from an edited scenario it starts at the first.
func (b *toolbar) stepPreset(forward bool) {
	opts := b.presets.Options
	if len(opts) == 0 {
		return
	}
	i := -1
	for j, o := range opts {
		if o == b.presets.Selected {
			i = j
		}
	}
	switch {
	case i < 0:
		i = 0
	case forward:
		i = (i + 1) % len(opts)
	default:
		i = (i - 1 + len(opts)) % len(opts)
	}
	b.presets.SetSelected(opts[i])
}
