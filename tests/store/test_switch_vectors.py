"""A graph rebuilt and switched in keeps the vectors already computed: each embedded node's
`embedding` and a function's or class's first-sentence vector (hybrid's rerank), so that a rebuild
does not leave the rerank without them until the next back-fill."""

from __future__ import annotations

import uuid

from mnemosyne import vocabulary as V
from mnemosyne.store.switch import carry_over


def test_carry_over_copies_both_vectors_of_functions_and_classes(db) -> None:
    src, dst = db.graph(f"t_cv_src_{uuid.uuid4().hex[:8]}"), db.graph(f"t_cv_dst_{uuid.uuid4().hex[:8]}")
    try:
        for g in (src, dst):
            g.query(f"CREATE (:{V.FUNCTION} {{{V.FQN}: 'pkg.f'}}), (:{V.CLASS} {{{V.FQN}: 'pkg.C'}}), "
                    f"(:{V.FUNCTION} {{{V.FQN}: 'pkg.bare'}})")
        for label, fqn, a, b in ((V.FUNCTION, "pkg.f", 0.1, 0.2), (V.CLASS, "pkg.C", 0.3, 0.4)):
            src.query(f"MATCH (x:{label} {{{V.FQN}: $k}}) SET x.{V.EMBEDDING_PROP} = vecf32($v), x.embed_hash = 'e', "
                      f"x.{V.SENTENCE_PROP} = vecf32($s), x.{V.SENTENCE_HASH_PROP} = 's'",
                      {"k": fqn, "v": [a, a, a], "s": [b, b, b]})
        carry_over(src, dst)
        rows = dst.query(f"MATCH (x) WHERE x.{V.FQN} IS NOT NULL RETURN x.{V.FQN}, x.{V.EMBEDDING_PROP}, "
                         f"x.{V.SENTENCE_PROP}, x.{V.SENTENCE_HASH_PROP} ORDER BY x.{V.FQN}")
        got = {r[0]: (r[1], r[2], r[3]) for r in rows}
        assert got["pkg.bare"] == (None, None, None)
        for fqn, b in (("pkg.f", 0.2), ("pkg.C", 0.4)):
            emb, sent, h = got[fqn]
            assert emb is not None and sent is not None and h == "s"
            assert [round(x, 3) for x in sent] == [b, b, b]
    finally:
        for g in (src, dst):
            g.delete()
