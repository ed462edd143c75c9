// Command icon renders assets/icon.svg to assets/icon.png, the 512 px
// picture FyneApp.toml names and every platform's icon is made from.
// Run it with `go generate ./assets` after editing the SVG.
package main

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

func main() {
	if err := render("icon.svg", "icon.png", 512); err != nil {
		fmt.Fprintln(os.Stderr, "icon:", err)
		os.Exit(1)
	}
}

func render(src, dst string, size int) error {
	icon, err := oksvg.ReadIcon(src, oksvg.StrictErrorMode)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	icon.SetTarget(0, 0, float64(size), float64(size))
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	scanner := rasterx.NewScannerGV(size, size, img, img.Bounds())
	icon.Draw(rasterx.NewDasher(size, size, scanner), 1)
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
