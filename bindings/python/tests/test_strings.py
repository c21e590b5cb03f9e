"""Strings: valid UTF-8 is kept; every other byte becomes the character
U+0080..U+00FF of the same number (spec.md §11.3, `pcol cat --format json`)."""
import pcol
from conftest import run_pcol

# frame name bytes -> the str the rule gives (written from the rule, by hand)
CASES = [
    (b"plain", "plain"),
    (b"caf\xc3\xa9", "caf\u00e9"),          # valid 2-byte
    (b"f\xe9A", "f\u00e9A"),                # stray Latin-1 byte
    (b"\xe2\x82\xac3", "\u20ac3"),          # valid 3-byte
    (b"\xf0\x9f\x98\x80", "\U0001F600"),    # valid 4-byte
    (b"ov\xc0\xaf", "ov\u00c0\u00af"),      # overlong: each byte
    (b"su\xed\xa0\x80", "su\u00ed\u00a0\u0080"),  # a surrogate: each byte
    (b"big\xf4\x90\x80\x80", "big\u00f4\u0090\u0080\u0080"),  # above U+10FFFF
    (b"cut\xe2\x82", "cut\u00e2\u0082"),    # sequence cut short at the end
    (b"cut\xe2\x82x", "cut\u00e2\u0082x"),  # cut short, then ASCII
    (b"\x80lead", "\u0080lead"),            # stray continuation byte
]


def test_invalid_utf8_names(tmp_path):
    src = tmp_path / "names.collapsed"
    src.write_bytes(b"".join(b"main;" + raw + b" %d\n" % (i + 1) for i, (raw, _) in enumerate(CASES)))
    out = str(tmp_path / "names.pcol")
    run_pcol("pack", str(src), "-o", out)
    with pcol.open(out) as f:
        names = set(n for n in f.table("functions")["name"] if n is not None)
        for raw, want in CASES:
            assert want in names, (raw, want, names)
        top = {n: flat for n, flat, _ in f.top()}
        for i, (_raw, want) in enumerate(CASES):
            assert top[want] == i + 1


def test_fold_data_is_pcol_folds_bytes_text_is_decoded(tmp_path):
    """File.fold's .data is `pcol fold`'s output, byte for byte, names that
    are not UTF-8 as their own bytes (what flamegraph.pl is given); .text is
    it decoded by the rule above, so written out as UTF-8 it differs there
    (review 19b F8: the docstring called .text the exact text)."""
    src = tmp_path / "latin1.collapsed"
    src.write_bytes(b"ma\xe9in;\xff\xfeb 3\nmain;caf\xc3\xa9 2\n")
    want = run_pcol("fold", str(src)).stdout
    with pcol.open(str(src)) as f:
        fo = f.fold()
    assert fo.data == want and b"ma\xe9in;\xff\xfeb 3\n" in want
    assert fo.text == want.decode("latin-1").replace("caf\u00c3\u00a9", "caf\u00e9")
    assert fo.text.encode("utf-8") != fo.data
    assert sorted(fo.stack) == ["main;caf\u00e9", "ma\u00e9in;\u00ff\u00feb"]
