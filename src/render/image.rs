//! `Drawing` → PNG (tiny-skia, text with ab_glyph and the bundled DejaVu Sans) and SVG.

use std::fmt::Write;
use std::path::Path;
use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Rect, Transform};

use super::drawing::{Color, Drawing, Shape, Stroke};
use crate::io::{FileError, FileProblem};

static REGULAR_TTF: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold.ttf");

/// Largest image side we render, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 16_384;

fn font(bold: bool) -> &'static FontRef<'static> {
    static FONTS: OnceLock<(FontRef<'static>, FontRef<'static>)> = OnceLock::new();
    let (regular, bold_font) = FONTS.get_or_init(|| {
        (
            FontRef::try_from_slice(REGULAR_TTF).expect("bundled font parses"),
            FontRef::try_from_slice(BOLD_TTF).expect("bundled font parses"),
        )
    });
    if bold { bold_font } else { regular }
}

/// Why a drawing could not be rendered or exported.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// The requested size is empty or larger than [`MAX_IMAGE_SIDE`].
    #[error(
        "an image of {width}×{height} pixels is out of range (1 to {MAX_IMAGE_SIDE} per side): choose a smaller scale"
    )]
    OutOfRange {
        /// Width in pixels the scale asked for.
        width: f32,
        /// Height in pixels the scale asked for.
        height: f32,
    },
    /// The pixel buffer could not be allocated.
    #[error("cannot allocate an image of {width}×{height} pixels")]
    Allocation {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// The PNG encoder failed.
    #[error("cannot encode PNG: {0}")]
    Encode(String),
    /// The picture would not fit the memory budget.
    #[error("{0}")]
    Budget(String),
    /// The file could not be written, or its extension names no image format.
    #[error(transparent)]
    File(#[from] FileError),
}

/// Image file formats we export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// Raster, rendered with tiny-skia.
    Png,
    /// Vector text.
    Svg,
}

impl ImageFormat {
    /// The format a file name's extension names (`.png`, `.svg`).
    pub fn from_path(path: &Path) -> Option<Self> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "png" => Some(ImageFormat::Png),
            "svg" => Some(ImageFormat::Svg),
            _ => None,
        }
    }
}

/// Writes the drawing to `path` (PNG or SVG by extension), atomically.
pub fn export(drawing: &Drawing, path: &Path, px_per_unit: f32) -> Result<(), ImageError> {
    write_image(drawing, path, px_per_unit, None)
}

/// The one writer behind `export` and `export_with`: the format by extension, an optional
/// DPI chunk for PNGs, written atomically.
fn write_image(
    drawing: &Drawing,
    path: &Path,
    px_per_unit: f32,
    dpi: Option<u32>,
) -> Result<(), ImageError> {
    let bytes = match ImageFormat::from_path(path) {
        Some(ImageFormat::Png) => {
            let png = to_png(drawing, px_per_unit)?;
            match dpi {
                Some(dpi) => with_dpi(&png, dpi)?,
                None => png,
            }
        }
        Some(ImageFormat::Svg) => to_svg(drawing, px_per_unit).into_bytes(),
        None => {
            return Err(FileError::new(
                path,
                FileProblem::UnknownExtension {
                    what: "image",
                    expected: ".png or .svg",
                },
            )
            .into());
        }
    };
    Ok(crate::io::write_atomic(path, &bytes)?)
}

/// How large an exported picture is: a multiple of the default scale, or a width in pixels
/// (the height follows the drawing's proportions). Lines and text scale with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ImageSize {
    /// The drawing's `base_px_per_unit` × this.
    Scale(f32),
    /// This many pixels wide.
    Width(u32),
}

impl ImageSize {
    /// Pixels per drawing unit for `d`.
    pub fn px_per_unit(self, d: &Drawing) -> f32 {
        match self {
            ImageSize::Scale(f) => d.base_px_per_unit * f,
            ImageSize::Width(w) => w as f32 / d.width.max(1e-3),
        }
    }

    /// The picture's size in pixels for `d`.
    pub fn pixels(self, d: &Drawing) -> (u32, u32) {
        let s = self.px_per_unit(d);
        (
            (d.width * s - 1e-3).ceil().max(0.0) as u32,
            (d.height * s - 1e-3).ceil().max(0.0) as u32,
        )
    }
}

/// Size and print resolution of an export.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExportOptions {
    /// The picture's size (SVG: its width and height attributes; the drawing stays vector).
    pub size: ImageSize,
    /// Dots per inch written into a PNG's pHYs chunk, for print (`None`: no chunk).
    pub dpi: Option<u32>,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            size: ImageSize::Scale(1.0),
            dpi: None,
        }
    }
}

/// Writes the drawing to `path` (PNG or SVG by extension), atomically, at `options`' size and
/// resolution.
pub fn export_with(
    drawing: &Drawing,
    path: &Path,
    options: &ExportOptions,
) -> Result<(), ImageError> {
    let px_per_unit = options.size.px_per_unit(drawing);
    write_image(drawing, path, px_per_unit, options.dpi)
}

/// `png` with a pHYs chunk saying `dpi` dots per inch (as pixels per metre), right after its
/// IHDR chunk, where the format wants it.
pub fn with_dpi(png: &[u8], dpi: u32) -> Result<Vec<u8>, ImageError> {
    // Signature (8) + IHDR: length (4), type (4), 13 bytes, CRC (4).
    const AFTER_IHDR: usize = 8 + 4 + 4 + 13 + 4;
    if png.len() < AFTER_IHDR || &png[12..16] != b"IHDR" {
        return Err(ImageError::Encode("not a PNG with its IHDR first".into()));
    }
    let per_metre = (f64::from(dpi) / 0.0254).round() as u32;
    let mut chunk = Vec::with_capacity(21);
    chunk.extend_from_slice(&9u32.to_be_bytes());
    let mut body = b"pHYs".to_vec();
    body.extend_from_slice(&per_metre.to_be_bytes());
    body.extend_from_slice(&per_metre.to_be_bytes());
    body.push(1); // unit: the metre
    chunk.extend_from_slice(&body);
    chunk.extend_from_slice(&crc32(&body).to_be_bytes());
    let mut out = Vec::with_capacity(png.len() + chunk.len());
    out.extend_from_slice(&png[..AFTER_IHDR]);
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&png[AFTER_IHDR..]);
    Ok(out)
}

/// The CRC-32 PNG chunks carry (ISO 3309, reflected polynomial 0xEDB88320).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn paint(c: Color) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.r, c.g, c.b, c.a);
    p.anti_alias = true;
    p
}

fn stroke_style(s: &Stroke, scale: f32) -> tiny_skia::Stroke {
    tiny_skia::Stroke {
        width: (s.width * scale).max(0.5),
        ..Default::default()
    }
}

/// The pixel size a drawing renders to at `px_per_unit`, or why it cannot.
fn raster_size(d: &Drawing, px_per_unit: f32) -> Result<(u32, u32), ImageError> {
    // A hair under the exact size before rounding up, so a width asked for in pixels is met
    // exactly despite rounding in px_per_unit.
    let w = (d.width * px_per_unit - 1e-3).ceil();
    let h = (d.height * px_per_unit - 1e-3).ceil();
    if !(w >= 1.0 && h >= 1.0 && w <= MAX_IMAGE_SIDE as f32 && h <= MAX_IMAGE_SIDE as f32) {
        return Err(ImageError::OutOfRange {
            width: w,
            height: h,
        });
    }
    Ok((w as u32, h as u32))
}

/// Whether `drawing` can be exported to `path` at `options` (a PNG's size in range): asked
/// before a long run whose picture is known up front, so the run is not lost to a bad scale.
pub fn check_export(
    drawing: &Drawing,
    path: &Path,
    options: &ExportOptions,
) -> Result<(), ImageError> {
    if ImageFormat::from_path(path) == Some(ImageFormat::Png) {
        raster_size(drawing, options.size.px_per_unit(drawing))?;
    }
    Ok(())
}

/// Renders the drawing at `px_per_unit` pixels per puzzle unit.
pub fn to_pixmap(d: &Drawing, px_per_unit: f32) -> Result<Pixmap, ImageError> {
    let (width, height) = raster_size(d, px_per_unit)?;
    // The pixels and, about as large at worst, the encoded file.
    crate::budget::check_memory(
        || format!("an image of {width}×{height} pixels"),
        crate::budget::bytes_of(&[width as usize, height as usize, 8]),
    )
    .map_err(|e| ImageError::Budget(e.to_string()))?;
    let mut pm = Pixmap::new(width, height).ok_or(ImageError::Allocation { width, height })?;
    let bg = d.background;
    pm.fill(tiny_skia::Color::from_rgba8(bg.r, bg.g, bg.b, bg.a));
    let s = px_per_unit;
    for shape in &d.shapes {
        // Each shape becomes a path with an optional fill and stroke, painted below.
        let (path, fill, stroke) = match shape {
            Shape::Rect {
                min,
                max,
                fill,
                stroke,
            } => (
                Rect::from_ltrb(min[0] * s, min[1] * s, max[0] * s, max[1] * s)
                    .map(PathBuilder::from_rect),
                *fill,
                stroke.as_ref(),
            ),
            Shape::Line { from, to, stroke } => {
                let mut pb = PathBuilder::new();
                pb.move_to(from[0] * s, from[1] * s);
                pb.line_to(to[0] * s, to[1] * s);
                (pb.finish(), None, Some(stroke))
            }
            Shape::Polygon {
                points,
                fill,
                stroke,
            } => {
                let mut pb = PathBuilder::new();
                for (k, p) in points.iter().enumerate() {
                    if k == 0 {
                        pb.move_to(p[0] * s, p[1] * s);
                    } else {
                        pb.line_to(p[0] * s, p[1] * s);
                    }
                }
                pb.close();
                (pb.finish(), *fill, stroke.as_ref())
            }
            Shape::Circle {
                center,
                radius,
                fill,
                stroke,
            } => (
                PathBuilder::from_circle(center[0] * s, center[1] * s, radius * s),
                *fill,
                stroke.as_ref(),
            ),
            Shape::Text {
                center,
                size,
                text,
                color,
                bold,
            } => {
                draw_text(
                    &mut pm,
                    [center[0] * s, center[1] * s],
                    size * s,
                    text,
                    *color,
                    *bold,
                );
                continue;
            }
        };
        let Some(path) = path else { continue };
        if let Some(f) = fill {
            pm.fill_path(
                &path,
                &paint(f),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
        if let Some(st) = stroke {
            pm.stroke_path(
                &path,
                &paint(st.color),
                &stroke_style(st, s),
                Transform::identity(),
                None,
            );
        }
    }
    Ok(pm)
}

/// The advance width of `text` at em size `size` (any unit; the result is in the same), in the
/// bundled font that both the files and the window draw with: for laying out text left-aligned
/// where shapes only centre it.
pub fn text_width(text: &str, size: f32, bold: bool) -> f32 {
    // Measured at 100 px and scaled, so small sizes do not round.
    let f = font(bold).as_scaled(PxScale::from(100.0));
    let mut width = 0.0;
    let mut prev = None;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            width += f.kern(p, id);
        }
        width += f.h_advance(id);
        prev = Some(id);
    }
    width * size / 100.0
}

/// Rasterises `text` centred on `center` (pixels), blending coverage into the pixmap.
fn draw_text(
    pm: &mut Pixmap,
    center: [f32; 2],
    size_px: f32,
    text: &str,
    color: Color,
    bold: bool,
) {
    let f = font(bold).as_scaled(PxScale::from(size_px));
    let mut x = 0.0;
    let mut glyphs = Vec::new();
    let mut prev = None;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            x += f.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(size_px, point(x, 0.0)));
        x += f.h_advance(id);
        prev = Some(id);
    }
    let outlined: Vec<_> = glyphs
        .into_iter()
        .filter_map(|g| f.outline_glyph(g))
        .collect();
    let Some(first) = outlined.first() else {
        return;
    };
    // Centre the ink box (not the line box), so digits sit in the middle of their cell.
    let mut bounds = first.px_bounds();
    for g in &outlined[1..] {
        let b = g.px_bounds();
        bounds.min.x = bounds.min.x.min(b.min.x);
        bounds.min.y = bounds.min.y.min(b.min.y);
        bounds.max.x = bounds.max.x.max(b.max.x);
        bounds.max.y = bounds.max.y.max(b.max.y);
    }
    let dx = (center[0] - (bounds.min.x + bounds.max.x) / 2.0).round();
    let dy = (center[1] - (bounds.min.y + bounds.max.y) / 2.0).round();
    let (w, h) = (pm.width() as i64, pm.height() as i64);
    let data = pm.data_mut();
    for g in &outlined {
        let b = g.px_bounds();
        g.draw(|gx, gy, coverage| {
            let px = b.min.x as i64 + gx as i64 + dx as i64;
            let py = b.min.y as i64 + gy as i64 + dy as i64;
            if px < 0 || py < 0 || px >= w || py >= h {
                return;
            }
            let alpha = coverage.clamp(0.0, 1.0) * color.a as f32 / 255.0;
            let k = ((py * w + px) * 4) as usize;
            // Premultiplied source-over.
            for (c, src) in [color.r, color.g, color.b].into_iter().enumerate() {
                data[k + c] =
                    (src as f32 * alpha + data[k + c] as f32 * (1.0 - alpha)).round() as u8;
            }
            data[k + 3] = (255.0 * alpha + data[k + 3] as f32 * (1.0 - alpha)).round() as u8;
        });
    }
}

/// PNG bytes of the drawing.
pub fn to_png(d: &Drawing, px_per_unit: f32) -> Result<Vec<u8>, ImageError> {
    to_pixmap(d, px_per_unit)?
        .encode_png()
        .map_err(|e| ImageError::Encode(e.to_string()))
}

fn svg_paint(fill: Option<Color>, stroke: Option<&Stroke>, s: f32) -> String {
    // Translucent colours keep their opacity (PNG and the screen have it too).
    let opacity = |attr: &str, c: Color| {
        if c.a < 255 {
            format!(r#" {attr}-opacity="{:.3}""#, f32::from(c.a) / 255.0)
        } else {
            String::new()
        }
    };
    let mut out = match fill {
        Some(c) => format!(r#" fill="{}"{}"#, c.hex(), opacity("fill", c)),
        None => r#" fill="none""#.to_string(),
    };
    if let Some(st) = stroke {
        let _ = write!(
            out,
            r#" stroke="{}" stroke-width="{}"{}"#,
            st.color.hex(),
            st.width * s,
            opacity("stroke", st.color)
        );
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// SVG text of the drawing at `px_per_unit` pixels per puzzle unit.
pub fn to_svg(d: &Drawing, px_per_unit: f32) -> String {
    let s = px_per_unit;
    // The size to a thousandth of a pixel, so a width asked for reads as that number.
    let round = |v: f32| (v * 1000.0).round() / 1000.0;
    let (w, h) = (round(d.width * s), round(d.height * s));
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    // A transparent background is no rectangle at all.
    if d.background.a > 0 {
        let _ = writeln!(
            out,
            r#"<rect width="{w}" height="{h}" fill="{}"{}/>"#,
            d.background.hex(),
            if d.background.a < 255 {
                format!(
                    r#" fill-opacity="{:.3}""#,
                    f32::from(d.background.a) / 255.0
                )
            } else {
                String::new()
            }
        );
    }
    for shape in &d.shapes {
        let _ = match shape {
            Shape::Rect {
                min,
                max,
                fill,
                stroke,
            } => writeln!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}"{}/>"#,
                min[0] * s,
                min[1] * s,
                (max[0] - min[0]) * s,
                (max[1] - min[1]) * s,
                svg_paint(*fill, stroke.as_ref(), s)
            ),
            Shape::Line { from, to, stroke } => writeln!(
                out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{}/>"#,
                from[0] * s,
                from[1] * s,
                to[0] * s,
                to[1] * s,
                svg_paint(None, Some(stroke), s)
            ),
            Shape::Polygon {
                points,
                fill,
                stroke,
            } => {
                let pts: Vec<String> = points
                    .iter()
                    .map(|p| format!("{},{}", p[0] * s, p[1] * s))
                    .collect();
                writeln!(
                    out,
                    r#"<polygon points="{}"{}/>"#,
                    pts.join(" "),
                    svg_paint(*fill, stroke.as_ref(), s)
                )
            }
            Shape::Circle {
                center,
                radius,
                fill,
                stroke,
            } => writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}"{}/>"#,
                center[0] * s,
                center[1] * s,
                radius * s,
                svg_paint(*fill, stroke.as_ref(), s)
            ),
            Shape::Text {
                center,
                size,
                text,
                color,
                bold,
            } => writeln!(
                out,
                r#"<text x="{}" y="{}" font-family="DejaVu Sans, sans-serif" font-size="{}"{} fill="{}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
                center[0] * s,
                center[1] * s,
                size * s,
                if *bold { r#" font-weight="bold""# } else { "" },
                color.hex(),
                escape(text)
            ),
        };
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::drawing::palette;

    fn sample() -> Drawing {
        let mut d = Drawing::new(2.0, 1.0);
        d.push(Shape::Rect {
            min: [0.0, 0.0],
            max: [1.0, 1.0],
            fill: Some(palette::CONFLICT_FILL),
            stroke: None,
        });
        d.push(Shape::Text {
            center: [1.5, 0.5],
            size: 0.7,
            text: "7".into(),
            color: palette::GIVEN,
            bold: true,
        });
        d
    }

    #[test]
    fn png_has_the_size_and_the_ink() {
        let pm = to_pixmap(&sample(), 40.0).unwrap();
        assert_eq!((pm.width(), pm.height()), (80, 40));
        let px = |x: u32, y: u32| pm.pixel(x, y).unwrap();
        assert_eq!(px(10, 10).red(), palette::CONFLICT_FILL.r);
        // The digit leaves dark pixels in the right half.
        let dark = (40..80)
            .flat_map(|x| (0..40).map(move |y| (x, y)))
            .filter(|&(x, y)| px(x, y).red() < 100)
            .count();
        assert!(dark > 20, "{dark} dark pixels");
        assert!(to_png(&sample(), 40.0).unwrap().starts_with(b"\x89PNG"));
        assert!(to_pixmap(&sample(), 1e6).is_err());
    }

    #[test]
    fn svg_has_shapes_and_escaped_text() {
        let mut d = sample();
        d.push(Shape::Text {
            center: [0.0, 0.0],
            size: 1.0,
            text: "a<b".into(),
            color: palette::GIVEN,
            bold: false,
        });
        let svg = to_svg(&d, 10.0);
        assert!(
            svg.contains(r##"<rect x="0" y="0" width="10" height="10" fill="#ffd6d6"/>"##),
            "{svg}"
        );
        assert!(svg.contains(">a&lt;b</text>"));
        assert!(svg.contains(r#"font-weight="bold""#));
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    #[test]
    fn widths_are_met_exactly_and_dpi_goes_into_a_valid_phys_chunk() {
        // The CRC every PNG's IEND chunk carries.
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
        let mut d = Drawing::new(7.3, 3.1);
        d.push(Shape::Text {
            center: [3.0, 1.5],
            size: 0.5,
            text: "x".into(),
            color: Color::rgb(0, 0, 0),
            bold: false,
        });
        for w in [1, 333, 1000] {
            let png = to_png(&d, ImageSize::Width(w).px_per_unit(&d)).unwrap();
            let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
            assert_eq!(width, w);
            assert_eq!(ImageSize::Width(w).pixels(&d).0, w);
        }
        let png = with_dpi(&to_png(&d, 10.0).unwrap(), 300).unwrap();
        assert_eq!(&png[37..41], b"pHYs");
        assert_eq!(u32::from_be_bytes(png[41..45].try_into().unwrap()), 11_811);
        assert_eq!(png[49], 1, "per metre");
        assert_eq!(
            u32::from_be_bytes(png[50..54].try_into().unwrap()),
            crc32(&png[37..50])
        );
        assert!(with_dpi(b"not a png", 300).is_err());
    }
}
