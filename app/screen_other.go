//go:build android || ios || wasm || js || mobile

package app

import "fyne.io/fyne/v2"

// screenArea is unknown off the desktop: the window fills the device.
func screenArea(fyne.Canvas) fyne.Size { return fyne.Size{} }
