// The one SVG writer of the CLI's charts (`penk distribution --svg`, `penk
// calibrate --svg`; tools/charts.h draws them): a canvas of a few shapes in
// pixel coordinates, and a linear scale from data to pixels. Every text and
// attribute value it is given is XML-escaped here, so no chart can write a
// broken file whatever its labels say (a rules text, a player name).
#ifndef PENK_TOOLS_SVG_CHART_H_
#define PENK_TOOLS_SVG_CHART_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace penk::cli {

// & < > " ' as entities: safe in text and in quoted attribute values.
std::string XmlEscape(std::string_view text);

// Data value d0 at pixel p0, d1 at p1, linear in between (and beyond); p1 <
// p0 for a y axis whose values grow upwards. d0 == d1 maps everything to p0.
struct LinearScale {
  double d0 = 0, d1 = 1, p0 = 0, p1 = 1;
  double operator()(double d) const { return d1 == d0 ? p0 : p0 + (d - d0) * (p1 - p0) / (d1 - d0); }
};

// How a line or outline is stroked: a colour, a width (0: the SVG default,
// 1) and a stroke-dasharray ("" for a solid line, e.g. "4 4").
struct Stroke {
  explicit Stroke(std::string c, double w = 0, std::string d = "")
      : colour(std::move(c)), width(w), dash(std::move(d)) {}
  std::string colour;
  double width;
  std::string dash;
};

// How a text is placed, by chained setters: TextStyle().Anchor("middle").
// Anchor "start" (default), "middle" or "end"; size 0 = the chart's font
// size; Rotate turns the text about its own (x, y).
struct TextStyle {
  TextStyle& Anchor(std::string a) { anchor = std::move(a); return *this; }
  TextStyle& Size(int s) { size = s; return *this; }
  TextStyle& Fill(std::string f) { fill = std::move(f); return *this; }
  TextStyle& Rotate(double deg) { rotate_deg = deg; return *this; }
  std::string anchor;
  int size = 0;
  std::string fill;
  double rotate_deg = 0;
};

class SvgChart {
 public:
  // A white canvas of width x height pixels (viewBox the same).
  SvgChart(double width, double height, int font_size = 12);

  void Line(double x1, double y1, double x2, double y2, const Stroke& stroke);
  // A filled rectangle; `tooltip` (if any) becomes its <title>.
  void Rect(double x, double y, double width, double height, std::string_view fill,
            std::string_view tooltip = "");
  void Circle(double cx, double cy, double r, std::string_view fill);
  // An open line through the points, not filled.
  void Polyline(const std::vector<std::pair<double, double>>& points, const Stroke& stroke);
  void Text(double x, double y, std::string_view text, const TextStyle& style = TextStyle());

  // The document: the shapes in the order drawn, closed.
  std::string Svg() const { return body_ + "</svg>\n"; }

 private:
  std::string body_;
};

}  // namespace penk::cli

#endif  // PENK_TOOLS_SVG_CHART_H_
