"""Server-rendered SVG charts (no script, no CDN): daily columns and horizontal bars.

Every label is escaped; the markup is built here and nowhere else.
"""
from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

ANSWERED, REFUSED, BAR, GRID, TEXT = "#2f7d62", "#c0392b", "#417690", "#e3e7ea", "#333"


def daily_columns_svg(days: list[tuple[str, int, int]], *, width: int = 860, height: int = 220,
                      title: str = "Questions per day") -> SafeString:
    """Stacked columns per day: answered (green) under refused (red); ``days`` = (label, total, refused)."""
    left, bottom, top = 40, 28, 12
    plot_w, plot_h = width - left - 8, height - bottom - top
    peak = max((total for _, total, _ in days), default=0) or 1
    step = plot_w / max(len(days), 1)
    bar_w = max(step * 0.7, 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(title)}" class="chart daily" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}"><title>{escape(title)}</title>']
    for fraction in (0, 0.5, 1):
        y = top + plot_h * (1 - fraction)
        parts.append(f'<line x1="{left}" x2="{width - 8}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>'
                     f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end" fill="{TEXT}">{peak * fraction:g}</text>')
    label_every = max(1, len(days) // 10)
    for index, (label, total, refused) in enumerate(days):
        x = left + index * step + (step - bar_w) / 2
        answered_h = plot_h * (total - refused) / peak
        refused_h = plot_h * refused / peak
        y_answered = top + plot_h - answered_h
        tip = escape(f"{label}: {total} questions, {refused} refused")
        parts.append(f'<g class="day"><title>{tip}</title>'
                     f'<rect x="{x:.1f}" y="{y_answered:.1f}" width="{bar_w:.1f}" height="{answered_h:.1f}" fill="{ANSWERED}"/>'
                     f'<rect x="{x:.1f}" y="{y_answered - refused_h:.1f}" width="{bar_w:.1f}" height="{refused_h:.1f}" fill="{REFUSED}"/></g>')
        if index % label_every == 0:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{height - 10}" font-size="10" text-anchor="middle" '
                         f'fill="{TEXT}">{escape(label)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))


def horizontal_bars_svg(items: list[tuple[str, float]], *, width: int = 420, title: str, color: str = BAR,
                        value_format: str = "{:g}") -> SafeString:
    """One bar per item, longest first as given, its label on the line above it at the chart's full
    width (document titles are long; a label column beside the bars cut them at both ends)."""
    row, label_h, char_w = 38, 15, 6.1   # char_w: the mean width of an 11 px sans-serif character
    height = max(len(items), 1) * row + 4
    peak = max((value for _, value in items), default=0) or 1
    fits = int((width - 4) / char_w)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(title)}" class="chart bars" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}"><title>{escape(title)}</title>']
    for index, (label, value) in enumerate(items):
        y = 2 + index * row
        shown = escape(value_format.format(value))
        bar = (width - 50) * value / peak
        short = label if len(label) <= fits else label[:fits - 1].rstrip() + "…"
        parts.append(f'<g><title>{escape(label)}: {shown}</title>'
                     f'<text x="0" y="{y + 11}" font-size="11" fill="{TEXT}">{escape(short)}</text>'
                     f'<rect x="0" y="{y + label_h}" width="{bar:.1f}" height="{row - label_h - 8}" fill="{color}"/>'
                     f'<text x="{bar + 4:.1f}" y="{y + label_h + 11}" font-size="11" fill="{TEXT}">{shown}</text></g>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
