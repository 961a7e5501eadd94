from mylib import engine


def test_engine():
    assert engine() == 1
