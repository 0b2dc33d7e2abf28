"""How far apart two colours look, to a typical eye and under each colour-vision deficiency.

Dichromacy is simulated with Machado, Oliveira and Fernandes (2009), "A Physiologically-based
Model for Simulation of Color Vision Deficiency" (IEEE TVCG 15(6)), at severity 1.0, applied to
linear sRGB; distance is CIEDE2000 (Sharma, Wu and Dalal 2005) between CIELAB colours (D65).
Pure arithmetic: the palettes' check (scripts/palette_check.py, tests) needs no Qt.
"""
from __future__ import annotations

import math
from itertools import combinations

Matrix = tuple[tuple[float, float, float], ...]
RGB = tuple[float, float, float]

MACHADO: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("typical", *MACHADO)


def hex_rgb(colour: str) -> RGB:
    """'#rrggbb' as sRGB in 0..1."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(rgb: RGB, vision: str) -> RGB:
    """The sRGB colour a person with `vision` sees (typical: unchanged)."""
    if vision == "typical":
        return rgb
    m = MACHADO[vision]
    lin = [_linear(c) for c in rgb]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return (_gamma(out[0]), _gamma(out[1]), _gamma(out[2]))


def lab(rgb: RGB) -> RGB:
    """sRGB (0..1) to CIELAB, D65 white."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1: RGB, lab2: RGB) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6))
         - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_bar, 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dhh / s_h) ** 2
                     + r_t * (dc / s_c) * (dhh / s_h))


def distance(c1: str, c2: str, vision: str = "typical") -> float:
    """CIEDE2000 between two '#rrggbb' colours as `vision` sees them."""
    return ciede2000(lab(simulate(hex_rgb(c1), vision)), lab(simulate(hex_rgb(c2), vision)))


def closest_pair(colours: dict[str, str], vision: str) -> tuple[float, str, str]:
    """The two colours of a set that look most alike to `vision`, and how far apart."""
    best = (math.inf, "", "")
    for (n1, c1), (n2, c2) in combinations(colours.items(), 2):
        d = distance(c1, c2, vision)
        if d < best[0]:
            best = (d, n1, n2)
    return best
