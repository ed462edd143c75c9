package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/lockscope/lockscope/app"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

const shotUsage = `usage: lockscope shot PRESET|FILE --at DURATION --out FILE.png [--size WxH] [--scale S] [--seed N] [--set field=value]... [--lang en|zh]

  PRESET|FILE        a preset name (lockscope presets) or a .lockscope.json file
  --at DURATION      the instant to draw, such as 12s or 1m30s (default 0)
  --out FILE.png     where to write the picture
  --size WxH         the layout, in window points (default 1600x1000)
  --scale S          pixels per point (default 2): the PNG is W·S × H·S pixels
  --seed N, --set    as for lockscope run
  --lang en|zh       the language of the picture's words (default en)

The picture is the mode's tab at that instant — cluster, state, timeline and
metrics under a caption naming the scenario, its parameters and the time —
drawn by Fyne's software renderer, with no display needed.
`

// shotOptions is the parsed command line of `lockscope shot`.
type shotOptions struct {
	source    string
	overrides []override
	at        time.Duration
	out       string
	size      fyne.Size
	scale     float32
	help      bool
	lang      i18n.Lang
}

// parseShotArgs reads the arguments of `shot`, in the style of `run`.
func parseShotArgs(args []string) (shotOptions, error) {
	o := shotOptions{size: fyne.NewSize(1600, 1000), scale: app.PictureScale, lang: i18n.English}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if isPositional(a) {
			if o.source != "" {
				return o, fmt.Errorf("shot: one scenario at a time, got %q and %q", o.source, a)
			}
			o.source = a
			continue
		}
		name, _, value := flagAt(args, &i)
		if name == "h" || name == "help" {
			o.help = true
			continue
		}
		v, err := value()
		if err != nil {
			return o, err
		}
		if ov, ok, err := scenarioOverride(name, v); ok {
			if err != nil {
				return o, err
			}
			o.overrides = append(o.overrides, ov)
			continue
		}
		switch name {
		case "at":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return o, fmt.Errorf("--at: want a duration such as 12s, got %q", v)
			}
			o.at = d
		case "out":
			if v == "" {
				return o, errors.New("--out: needs a file name")
			}
			o.out = v
		case "size":
			w, h, ok := strings.Cut(strings.ToLower(v), "x")
			wi, err1 := strconv.Atoi(w)
			hi, err2 := strconv.Atoi(h)
			if !ok || err1 != nil || err2 != nil || wi < 200 || hi < 200 || wi > 8000 || hi > 8000 {
				return o, fmt.Errorf("--size: want WxH with each from 200 to 8000, such as 1600x1000, got %q", v)
			}
			o.size = fyne.NewSize(float32(wi), float32(hi))
		case "scale":
			s, err := strconv.ParseFloat(v, 32)
			if err != nil || s <= 0 || s > 4 {
				return o, fmt.Errorf("--scale: want a number above 0 and at most 4, got %q", v)
			}
			o.scale = float32(s)
		case "lang":
			l, ok := i18n.Parse(v)
			if !ok {
				return o, fmt.Errorf("--lang: want en or zh, got %q", v)
			}
			o.lang = l
		default:
			return o, fmt.Errorf("shot: unknown flag %q (flags: --at, --out, --size, --scale, --seed, --set, --lang)", a)
		}
	}
	if o.help {
		return o, nil
	}
	if o.source == "" {
		return o, errors.New("shot: name a preset or a .lockscope.json file (lockscope presets lists the presets)")
	}
	if o.out == "" {
		return o, errors.New("shot: --out FILE.png is needed")
	}
	return o, nil
}

// shotScenario is `lockscope shot`: the tab's picture at an instant,
// rendered without a display.
func shotScenario(args []string, stdout, stderr io.Writer) int {
	o, err := parseShotArgs(args)
	if err != nil {
		return fail(stderr, err)
	}
	if o.help {
		fmt.Fprint(stdout, shotUsage)
		return exitOK
	}
	sc, err := loadScenario(o.source, o.overrides)
	if err != nil {
		return fail(stderr, err)
	}
	i18n.Set(o.lang)
	defer i18n.Set(i18n.English)
	p := newProgress(stderr)
	data, err := renderShot(sc, o.source, o.at, o.size, o.scale, p.report)
	p.done()
	if err != nil {
		return fail(stderr, err)
	}
	if err := os.WriteFile(o.out, data, 0o644); err != nil {
		return writeFailed(stderr, fmt.Errorf("--out: %w", err))
	}
	return exitOK
}

// renderShot draws a scenario's tab at an instant as PNG bytes, on a Fyne
// test app: it renders in memory with the software painter, so no display
// or GL driver is involved.
func renderShot(sc *sim.Scenario, origin string, at time.Duration, size fyne.Size, scale float32,
	progress func(at, end time.Duration) bool) ([]byte, error) {
	if fyne.CurrentApp() == nil {
		test.NewApp()
	}
	fyne.CurrentApp().Settings().SetTheme(app.PictureTheme())
	img, err := app.RenderScenarioReporting(sc, origin, at, size, scale, progress)
	if err != nil {
		return nil, err
	}
	return app.EncodePNG(img)
}
