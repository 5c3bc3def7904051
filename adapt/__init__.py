"""Fitting models to an archive: everything that trains, nothing that runs at query time.

- :mod:`adapt.command`: `bosun adapt`, in order: mine pairs, fit a head, re-embed, fit the
  reranker for the new model, record it all in the collection (the CLI's arguments are
  :mod:`agent.adapt_command`); :mod:`adapt.reset` is ``--reset``.
- :mod:`adapt.pair_mining`: training pairs mined from what a collection holds, hard negatives
  from hybrid retrieval; :mod:`adapt.queries`: the training queries and their cross-fitting.
- :mod:`adapt.head` fits and installs a linear head on the stock MiniLM
  (:mod:`adapt.linear_head`: the fit and the ONNX graph edit).
- :mod:`adapt.calibration` fits the feature reranker on the adapted collection
  (:mod:`adapt.reranker_training`, :mod:`adapt.reranker_fitting`) with the archive's vocabulary.
- :mod:`adapt.shipped_reranker`: ``python -m adapt.shipped_reranker`` builds the shipped
  ``providers/data/feature_reranker.json``.

Query time only reads what is fitted here: :mod:`providers.linear_head` applies a head,
:mod:`providers.rerankers` scores with the weights. Nothing under ``providers/`` or ``tools/``
imports this package (the import contract in ``pyproject.toml``).
"""
