//go:build !android && !ios && !wasm && !js && !mobile

package app

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// screenArea is the work area of the primary monitor in Fyne units at the
// canvas's scale; zero when there is no monitor. It asks GLFW, which Fyne
// has initialised once a window exists, and must run on the main thread
// (before ShowAndRun, or in a lifecycle callback): Fyne has no API for the
// screen's size.
func screenArea(c fyne.Canvas) (size fyne.Size) {
	defer func() {
		if recover() != nil { // GLFW not initialised: no screen known
			size = fyne.Size{}
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return fyne.Size{}
	}
	_, _, w, h := m.GetWorkarea()
	if w <= 0 || h <= 0 {
		if mode := m.GetVideoMode(); mode != nil {
			w, h = mode.Width, mode.Height
		}
	}
	scale := c.Scale()
	if scale <= 0 {
		scale = 1
	}
	return fyne.NewSize(float32(w)/scale, float32(h)/scale)
}
