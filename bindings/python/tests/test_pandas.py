"""to_pandas: the same values, with pandas' nullable types for NA."""
import numpy as np
import pytest

import pcol

pd = pytest.importorskip("pandas")


def test_to_pandas_every_view(packed):
    for _s, p in packed[::9]:
        with pcol.open(p) as f:
            for v in pcol.VIEWS:
                t = f.table(v)
                df = f.to_pandas(v)
                assert list(df.columns) == list(t.columns) and len(df) == t.nrows
                for c in t.columns:
                    k, a, s = t.kinds[c], t[c], df[c]
                    if k == "ref":
                        assert str(s.dtype) == "UInt32"
                        assert (s.isna().to_numpy() == (a == 0)).all()
                    elif k == "i64":
                        assert str(s.dtype) == "Int64"
                        assert (s.isna().to_numpy() == (a == pcol.NA_I64)).all()
                        assert (s.fillna(pcol.NA_I64).to_numpy(dtype=np.int64) == a).all()
                    elif k == "str":
                        assert s.tolist() == a.tolist()
                    elif k == "f64":
                        assert np.array_equal(s.to_numpy(), a, equal_nan=True)
                    else:
                        assert (s.to_numpy() == a).all()


def test_top_to_pandas(packed):
    with pcol.open(packed[0][1]) as f:
        t = f.top()
        df = t.to_pandas()
        assert df["name"].tolist() == t.name.tolist()
        assert abs(df["sum_pct"].iloc[-1] - 100.0 * t.flat.sum() / t.total) < 1e-9
