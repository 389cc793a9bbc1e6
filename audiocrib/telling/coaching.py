"""The coach's advice in words: the expert's choice and the reason a player would give, from the facts the coach
found (`audiocrib.coach`), never from a fixed list of tips: a reason is said only when it is true of the position.

>>> from audiocrib.coach import lay_away_facts
>>> from audiocrib.engine.cards import parse_cards
>>> from audiocrib.engine.rules import Rules
>>> s = SeatNames(("You", "Bob"), Rules(), 0)
>>> advice = lay_away_facts(parse_cards("5H 5S 5C JD 4H 6C"), discard=2, my_crib=False, crib_size=4)
>>> print(lay_away_words(advice, s, dealer=1))  # doctest: +NORMALIZE_WHITESPACE
Keep the three fives and the jack, and lay away the four and six: sixteen and three quarters on average, the most
of any keep, with fourteen in hand before the starter. The four and six give Bob's crib about five. Net: eleven and
three quarters. Next best: keep the four and three fives, net eight and a half, three and a quarter less.
"""

from __future__ import annotations

from collections.abc import Sequence

from audiocrib.coach import CardChoice, KeepChoice, LayAwayAdvice, PlayAdvice, Reply
from audiocrib.engine.cards import Card, Rank
from audiocrib.engine.numbers import number_words
from audiocrib.engine.scoring import Score, ScoreKind
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.phrases import capitalised, join_words

__all__ = ["about", "advice_off", "amount", "lay_away_words", "loss_words", "no_advice", "play_words", "rank_list"]

_QUARTERS = ("", " and a quarter", " and a half", " and three quarters")
_ALONE = ("nothing", "a quarter", "a half", "three quarters")


def amount(value: float) -> str:
    """A number of points to the nearest quarter, in words: "sixteen and a half", "a quarter", "nothing".

    >>> amount(16.65), amount(0.3), amount(-2.4), amount(1.1)
    ('sixteen and three quarters', 'a quarter', 'minus two and a half', 'one')
    """
    quarters = round(abs(value) * 4)
    whole, part = divmod(quarters, 4)
    words = number_words(whole) + _QUARTERS[part] if whole else _ALONE[part]
    return f"minus {words}" if value < 0 and quarters else words


def about(value: float) -> str:
    """``amount`` with "about" before it, unless it is a whole number of points exactly."""
    words = amount(value)
    return words if abs(value - round(value)) < 1e-9 else f"about {words}"


def loss_words(points: float) -> str:
    """A loss of points of expectation: tenths below one ("three tenths of a point"), quarters from one.

    >>> loss_words(0.32), loss_words(0.5), loss_words(1.26), loss_words(2.0), loss_words(0.1)
    ('three tenths of a point', 'half a point', 'one and a quarter points', 'two points', 'a tenth of a point')
    """
    if points < 0.95:
        tenths = max(1, round(points * 10))
        if tenths == 5:
            return "half a point"
        return "a tenth of a point" if tenths == 1 else f"{number_words(tenths)} tenths of a point"
    words = amount(points)
    return f"{words} point" if words == "one" else f"{words} points"


def rank_list(cards: Sequence[Card], article: bool = True) -> str:
    """Cards by rank, as players say a hand: "the three fives and the jack", "the four and six".

    >>> from audiocrib.engine.cards import parse_cards
    >>> rank_list(parse_cards("5H 5S JD 5C")), rank_list(parse_cards("4H 6C"))
    ('the three fives and the jack', 'the four and six')
    """
    groups: dict[Rank, int] = {}
    for card in sorted(cards):
        groups[card.rank] = groups.get(card.rank, 0) + 1
    parts = [rank.word if n == 1 else f"{number_words(n)} {rank.plural}" for rank, n in groups.items()]
    if all(n == 1 for n in groups.values()) and len(parts) > 1:
        text = join_words(parts)
        return f"the {text}" if article else text
    return join_words([f"the {p}" if article else p for p in parts])


def _holds(score: Score) -> str:
    """What kept cards hold before the starter, or "" when nothing."""
    if not score.total:
        return ""
    return f"it holds {number_words(score.total)} before the starter"


def _flush_words(choice: KeepChoice) -> str:
    flush = choice.holds.of_kind(ScoreKind.FLUSH)
    if not flush:
        return ""
    suit = choice.keep[0].suit.word
    return f"it holds a flush of {number_words(len(choice.keep))} in {suit}"


def _crib_words(choice: KeepChoice, s: SeatNames, dealer: int, my_crib: bool) -> str:
    """What the discards are worth in the crib: "The four and six are worth about six in your crib."."""
    thrown = capitalised(rank_list(choice.discard))
    one = len(choice.discard) == 1
    crib = "your crib" if dealer == s.me else f"{s.possessive(dealer)} crib"
    worth = about(choice.expected_crib)
    if my_crib:
        best = ", the most of any choice" if choice.best_crib and not one else ""
        return f"{thrown} {'is' if one else 'are'} worth {worth} in {crib}{best}."
    least = ", as little as any choice" if choice.best_crib else ""
    return f"{thrown} {'gives' if one else 'give'} {crib} {worth}{least}."


def lay_away_words(advice: LayAwayAdvice, s: SeatNames, dealer: int) -> str:
    """The lay-away advice: the expert's keep with its reason, then the next best and what each gives up."""
    best = advice.best
    parts: list[str] = []
    if advice.need is not None:
        chance = round((best.chance or 0.0) * 100)
        parts.append(f"You need {number_words(advice.need)} from your hand to go out: keep the cards most likely to "
                     f"count out. Keep {rank_list(best.keep)}, and lay away {rank_list(best.discard)}: they make it "
                     f"with {number_words(chance)} in a hundred starters.")
    else:
        why = f"{amount(best.expected_hand)} on average"
        if best.most_hand:
            why += ", the most of any keep"
        held = _flush_words(best) or _holds(best.holds)
        if held:
            why += f"; {held}"
        parts.append(f"Keep {rank_list(best.keep)}, and lay away {rank_list(best.discard)}: {why}.")
    parts.append(_crib_words(best, s, dealer, advice.my_crib))
    if not best.most_hand and advice.need is None:
        bigger = max(advice.everything, key=lambda c: c.expected_hand)
        side = "puts more in your side's crib" if advice.my_crib else "gives the crib less"
        parts.append(f"Keeping {rank_list(bigger.keep)} holds more, {amount(bigger.expected_hand)}, but this "
                     f"{side}.")
    parts.append(f"Net: {amount(best.net)}.")
    nexts = []
    for choice in advice.choices[1:]:
        less = "as good" if choice.loss < 0.1 else f"{loss_words(choice.loss)} less"
        nexts.append(f"keep {rank_list(choice.keep)}, net {amount(choice.net)}, {less}")
    if nexts:
        parts.append(f"Next best: {'; '.join(nexts)}.")
    return " ".join(parts)


# ----------------------------------------------------------------------------------------------- the play
_SCORES_AS = {
    ScoreKind.FIFTEEN: "makes fifteen",
    ScoreKind.THIRTY_ONE: "makes thirty-one",
    ScoreKind.PAIR_ROYAL: "makes a pair royal",
    ScoreKind.DOUBLE_PAIR_ROYAL: "makes a double pair royal",
}


def _scores(score: Score, card: Card) -> list[str]:
    """What a card pegs, item by item: "makes fifteen for two", "pairs the eight for two"."""
    words = []
    for item in score.items:
        if item.kind is ScoreKind.PAIR:
            words.append(f"pairs the {card.rank.word} for two")
        elif item.kind is ScoreKind.RUN:
            words.append(f"makes a run of {number_words(item.points)} for {number_words(item.points)}")
        else:
            words.append(f"{_SCORES_AS[item.kind]} for {number_words(item.points)}")
    return words


def _grouped(replies: Sequence[Reply]) -> list[tuple[str, Score, int]]:
    """Replies with the ten-cards that score alike (fifteen or thirty-one, no pair) said as one: "a ten-card"."""
    tens = [r for r in replies if r.rank.value_in_count == 10 and not r.score.of_kind(ScoreKind.PAIR)
            and not r.score.of_kind(ScoreKind.RUN)]
    grouped: list[tuple[str, Score, int]] = []
    if len(tens) > 1 and len({r.score.total for r in tens}) == 1:
        grouped.append(("a ten-card", tens[0].score, sum(r.cards for r in tens)))
        rest = [r for r in replies if r not in tens]
    else:
        rest = list(replies)
    grouped += [(f"a{'n' if r.rank in (Rank.ACE, Rank.EIGHT) else ''} {r.rank.word}", r.score, r.cards) for r in rest]
    grouped.sort(key=lambda g: (-g[1].total, -g[2]))
    return grouped


_REPLY_AS = {
    ScoreKind.FIFTEEN: "fifteen",
    ScoreKind.THIRTY_ONE: "thirty-one",
    ScoreKind.PAIR: "a pair",
    ScoreKind.PAIR_ROYAL: "a pair royal",
    ScoreKind.DOUBLE_PAIR_ROYAL: "a double pair royal",
}


def _reply_words(score: Score) -> str:
    """What a reply scores: "fifteen for two", "fifteen and a run of three for five"."""
    kinds = [f"a run of {number_words(i.points)}" if i.kind is ScoreKind.RUN else _REPLY_AS[i.kind]
             for i in score.items]
    return f"{join_words(kinds)} for {number_words(score.total)}"


def _danger(choice: CardChoice, advice: PlayAdvice, s: SeatNames) -> str:
    """What the next opponent could score on ``choice`` ("twenty, where a king gives Bob a pair royal for six"),
    that nothing scores on it, or "" when nobody can reply."""
    if advice.opponent is None or choice.count == 31:
        return ""
    name = s.seat(advice.opponent)
    count = number_words(choice.count)
    if choice.fits == 0:
        return f"{count}, where no card you have not seen fits, so {name} must say go"
    if not choice.replies:
        return f"{count}, where nothing {name} lays scores"
    what, score, cards = _grouped(choice.replies)[0]
    return (f"{count}, where {what} gives {name} {_reply_words(score)} ({number_words(cards)} of "
            f"{number_words(advice.unseen)} unseen cards)")


def _card_title(card: Card, capital: bool = True) -> str:
    return f"{'The' if capital else 'the'} {card.rank.word}"


def play_words(advice: PlayAdvice, s: SeatNames) -> str:
    """The play advice: the expert's card and why, then what the other cards risk or give up."""
    best = advice.best
    title = _card_title(best.card)
    if advice.wins:
        pegs = join_words(_scores(best.score, best.card) + (["takes the last card for one"] if best.last else []))
        return f"{title} wins the game: it {pegs}, and you need {number_words(advice.need)}."
    if len(advice.choices) == 1:
        reasons = _play_reasons(best, advice, s)
        tail = f" It {join_words(reasons)}." if reasons else ""
        return f"You can lay only {_card_title(best.card, False)}.{tail}"
    parts = []
    if advice.board:
        chance = round(best.value)
        opp = s.seat(advice.opponent) if advice.opponent is not None else "the other side"
        parts.append(f"You need {number_words(advice.need)} to win and {opp} {number_words(advice.opponent_need)}: "
                     f"playing to the board, {_card_title(best.card, False)} gives you the best chance, about "
                     f"{number_words(chance)} in a hundred.")
    reasons = _play_reasons(best, advice, s)
    if reasons:
        parts.append(f"{title}: it {join_words(reasons)}.")
    elif not advice.board:
        parts.append(f"{title}.")
    for other in advice.choices[1:3]:
        parts.append(_other_words(other, advice, s))
    return " ".join(parts)


def _play_reasons(choice: CardChoice, advice: PlayAdvice, s: SeatNames) -> list[str]:
    reasons = _scores(choice.score, choice.card)
    if choice.last:
        reasons.append("takes the go for one" if choice.count < 31 else "takes the last card")
    if advice.lead and choice.card.value < 5 and advice.opponent is not None:
        reasons.append("is a safe lead, since no card makes fifteen on it")
        return reasons
    danger = _danger(choice, advice, s)
    if danger:
        reasons.append(f"leaves {danger}")
    return reasons


def _other_words(choice: CardChoice, advice: PlayAdvice, s: SeatNames) -> str:
    """What another card gives up: "The queen would leave twenty, where a jack gives Bob a run of three for three:
    two and a quarter points worse."."""
    title = _card_title(choice.card)
    if advice.board:
        if choice.loss < 1.0:
            return f"{title} is as good."
        return f"{title} gives about {number_words(round(choice.value))} in a hundred."
    if choice.loss < 0.1:
        return f"{title} is as good."
    reasons = _scores(choice.score, choice.card)
    danger = _danger(choice, advice, s) if choice.replies else ""
    if danger:
        reasons.append(f"leave {danger}")
    worse = f"{loss_words(choice.loss)} worse"
    if not reasons:
        return f"{title} would be {worse}."
    return f"{title} would {join_words(_infinitive(reasons))}: {worse}."


def _infinitive(phrases: list[str]) -> list[str]:
    """"makes fifteen" as "make fifteen", "pairs the eight" as "pair the eight" (after "would")."""
    out = []
    for phrase in phrases:
        verb, _, rest = phrase.partition(" ")
        if verb in ("makes", "pairs", "takes"):
            verb = verb[:-1]
        out.append(f"{verb} {rest}")
    return out


def no_advice() -> str:
    """The key's answer when the game waits for no decision of the player's."""
    return "The coach advises when you lay away or lay a card; there is nothing to decide now."


def advice_off() -> str:
    """The key's answer at a table where advice is not allowed."""
    return "Advice is not allowed at this table; the host can allow it when making the table."
