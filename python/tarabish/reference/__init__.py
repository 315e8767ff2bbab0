"""tarabish.reference: the pure-Python reference implementation of the Tarabish rules engine.

Written from docs/RULES.md alone as a readable specification, with the interface of
docs/ENGINE.md, to cross-check the Rust core. It uses only the shared value modules
(``tarabish._cards``, ``_rules``, ``_runs``, ``_actions``, ``_views``, ``_errors``), never
``tarabish._core``.

Modules, one concept each (rule ids in their docstrings):
``_order`` trick order and card points (R1), ``_play`` legal plays and trick winner (R5),
``_runs`` runs and bella (R4), ``_scoring`` scoring a hand (R6), ``_deal`` the seeded deal
(R2), ``_hand`` one hand (R3-R6), ``_match`` a match (R7), ``_observe`` what a seat may know,
``_playout`` random playouts, ``_solve`` plain minimax of endgames, ``_input`` checking
arguments; table mode (docs/TABLE.md):
``_declarations`` manual announce, show and bella (R4.4, R4.5, R8.5, R8.6c-e), ``_calls``
misplays and calls (R8.1-R8.3, R8.6a-b), ``_table_view`` the table view (R8.4), ``_events``
the per-seat events (docs/EVENTS.md).
"""

from ._deal import deal_cards
from ._hand import HandState
from ._match import MatchState
from ._observe import TENSOR_SIZE
from ._order import card_points
from ._play import legal_plays, trick_winner
from ._playout import play_random_hand
from ._runs import compare_runs, find_runs, run_winner
from ._scoring import score_hand
from ._solve import solve

__all__ = [
    "TENSOR_SIZE",
    "HandState",
    "MatchState",
    "card_points",
    "compare_runs",
    "deal_cards",
    "find_runs",
    "legal_plays",
    "play_random_hand",
    "run_winner",
    "score_hand",
    "solve",
    "trick_winner",
]
