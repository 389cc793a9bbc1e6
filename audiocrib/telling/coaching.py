"""The coach's advice in words: the expert's choice and the reason a player would give, from the facts the coach
found (`audiocrib.coach`), never from a fixed list of tips: a reason is said only when it is true of the position.

>>> from audiocrib.coach import lay_away_facts
>>> from audiocrib.engine.cards import parse_cards
>>> from audiocrib.engine.rules import Rules
>>> s = SeatNames(("You", "Bob"), Rules(), 0)
>>> advice = lay_away_facts(parse_cards("5H 5S 5C JD 4H 6C"), discard=2, my_crib=False, crib_size=4)
>>> print(lay_away_words(advice, s, dealer=1))  # doctest: +NORMALIZE_WHITESPACE
Keep the three fives and the jack, and lay away the four and six: sixteen and three quarters on average, the most
of any keep. It holds fourteen before the starter: four fifteens and a pair royal. The jack scores one more for
nobs if a diamond is cut. The four and six give Bob's crib about five. Net: eleven and three quarters. Next best:
keep the four and the three fives, net eight and a half, three and a quarter points less; keep the four, the two
fives and the six, net eight and a half, three and a quarter points less.
"""

from __future__ import annotations

from collections.abc import Sequence

from audiocrib.coach import CardChoice, KeepChoice, LayAwayAdvice, PlayAdvice, Reply
from audiocrib.engine.cards import Card, Rank
from audiocrib.engine.numbers import number_words
from audiocrib.engine.scoring import Score, ScoreKind
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.phrases import capitalised, join_words

__all__ = ["about", "advice_off", "amount", "lay_away_words", "loss_words", "no_advice", "pegs_words", "play_words",
           "rank_list", "reply_words"]

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


def _suit_cut(card: Card) -> str:
    """"a heart is cut"."""
    return f"a {card.suit.word[:-1]} is cut"


_HELD_AS = {
    ScoreKind.FIFTEEN: ("a fifteen", "fifteens"),
    ScoreKind.PAIR: ("a pair", "pairs"),
    ScoreKind.PAIR_ROYAL: ("a pair royal", "pairs royal"),
    ScoreKind.DOUBLE_PAIR_ROYAL: ("a double pair royal", "double pairs royal"),
}


def _held_items(score: Score) -> str:
    """What a kept hand's points are made of, flush aside: "four fifteens and a pair royal", "a double run of
    three" (two runs of three and their pair are said as players say them)."""
    counts: dict[tuple[ScoreKind, int], int] = {}
    for item in score.items:
        if item.kind is not ScoreKind.FLUSH:
            key = (item.kind, item.points if item.kind is ScoreKind.RUN else 0)
            counts[key] = counts.get(key, 0) + 1
    # A double run holds its pair, a triple run its pair royal, a quadruple run its two pairs: said as one.
    runs = max((n for (kind, _), n in counts.items() if kind is ScoreKind.RUN), default=0)
    within = {2: (ScoreKind.PAIR, 1), 3: (ScoreKind.PAIR_ROYAL, 1), 4: (ScoreKind.PAIR, 2)}.get(runs)
    if within is not None and counts.get((within[0], 0), 0) >= within[1]:
        counts[(within[0], 0)] -= within[1]
    parts = []
    for (kind, length), n in counts.items():
        if not n:
            continue
        if kind is ScoreKind.RUN:
            many = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a quadruple run"}.get(n, "runs")
            parts.append(f"{many} of {number_words(length)}")
        else:
            one, plural = _HELD_AS[kind]
            parts.append(one if n == 1 else f"{number_words(n)} {plural}")
    return join_words(parts)


def _held_words(choice: KeepChoice) -> str:
    """What the kept cards hold before the starter and of what, the flush in it, and nobs: "" when none."""
    sentences = []
    flush = choice.holds.of_kind(ScoreKind.FLUSH)
    items = _held_items(choice.holds)
    if flush:
        size = number_words(len(choice.keep))
        suit = choice.keep[0].suit.word
        also = f"; with {items} it holds {number_words(choice.holds.total)} before the starter" if items else ""
        sentences.append(f"Its {size} {suit} are a flush, {size} points, {number_words(len(choice.keep) + 1)} if "
                         f"{_suit_cut(choice.keep[0])}{also}.")
    elif choice.holds.total:
        sentences.append(f"It holds {number_words(choice.holds.total)} before the starter: {items}.")
    jacks = choice.jacks
    if len(jacks) == 1:
        sentences.append(f"The jack scores one more for nobs if {_suit_cut(jacks[0])}.")
    elif jacks:
        suits = " or ".join(f"a {jack.suit.word[:-1]}" for jack in jacks)
        sentences.append(f"The jacks score one more for nobs if {suits} is cut.")
    return " ".join(sentences)


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


def _board_words(advice: LayAwayAdvice, s: SeatNames, dealer: int) -> str:
    """Laying away to the board: what the hand must make, and how often the expert's keep makes it."""
    best = advice.best
    need = number_words(max(0, advice.need or 0))
    counted = "your hand and crib make" if advice.my_crib else "your hand makes"
    keep = f"Keep {rank_list(best.keep)}, and lay away {_thrown(best)}"
    if advice.to_win is not None:
        first = f"You need {number_words(advice.to_win)} to win. {keep}"
        aim = f"with about {number_words(advice.to_win - (advice.need or 0))} from the play, {counted} the {need} left"
    else:
        first = f"You need {need} from your hand. {keep}"
        aim = f"{counted} it"
    chance = best.chance or 0.0
    weighed = "It is chosen for its chance of counting out, weighed against its points."
    if chance <= 0.0:
        return f"{first}: no keep makes it with any starter, so {weighed[3:].replace('is chosen', 'this one is')}"
    return f"{first}: {aim} {_starters(chance)}. {weighed}"


def _starters(chance: float) -> str:
    """"with any starter", "with forty in a hundred starters", "with no starter"."""
    if chance >= 1.0:
        return "with any starter"
    if chance <= 0.0:
        return "with no starter"
    return f"with {number_words(max(1, min(99, round(chance * 100))))} in a hundred starters"


def _less(best_net: float, choice: KeepChoice) -> str:
    """How much less a keep nets than the best, in the quarters its net is said in, so the two add up heard:
    "net twelve and three quarters, a quarter less" after "Net: thirteen"."""
    if choice.loss < 0.1:
        return "as good"
    quarters = round(best_net * 4) - round(choice.net * 4)
    if quarters <= 0:
        return "a little less"
    if quarters == 2:
        return "half a point less"
    words = amount(quarters / 4)
    return f"{words} point less" if words == "one" else f"{words} {'of a point' if quarters < 4 else 'points'} less"


def _thrown(choice: KeepChoice) -> str:
    """The cards laid away, by rank ("the five and queen"), or by name where a card of the same rank is kept
    ("the five of hearts and the queen of spades"), so the player knows which to mark."""
    kept = {card.rank for card in choice.keep}
    if any(card.rank in kept for card in choice.discard):
        return join_words([f"the {card.name}" for card in choice.discard])
    return rank_list(choice.discard)


def lay_away_words(advice: LayAwayAdvice, s: SeatNames, dealer: int, reasons_only: bool = False) -> str:
    """The lay-away advice: the expert's keep with its reason, then the next best and what each gives up. With
    ``reasons_only``, the reason alone (what the keep holds, the crib's side), for a drill whose verdict has
    already said the keep, its figures and what the answer gave up."""
    best = advice.best
    parts: list[str] = []
    hopeless = advice.need is not None and not any(c.chance for c in advice.everything)
    if advice.need is not None and not hopeless:
        parts.append(_board_words(advice, s, dealer))
    else:
        if hopeless:
            need = number_words(advice.to_win if advice.to_win is not None else advice.need or 0)
            parts.append(f"You need {need} to win, more than this hand can make with any starter, so keep for "
                         f"points.")
        most = ", the most of any keep" if best.most_hand else ""
        if reasons_only:
            parts.append(f"It is {amount(best.expected_hand)} on average{most}.")
        else:
            parts.append(f"Keep {rank_list(best.keep)}, and lay away {_thrown(best)}: "
                         f"{amount(best.expected_hand)} on average{most}.")
        held = _held_words(best)
        if held:
            parts.append(held)
    parts.append(_crib_words(best, s, dealer, advice.my_crib))
    if not best.most_hand and (advice.need is None or hopeless):
        bigger = max(advice.everything, key=lambda c: c.expected_hand)
        crib = "your crib" if dealer == s.me else f"{s.possessive(dealer)} crib"
        side = f"puts more in {crib}" if advice.my_crib else f"gives {crib} less"
        parts.append(f"Keeping {rank_list(bigger.keep)} is worth more in the hand, {amount(bigger.expected_hand)}, "
                     f"but the keep advised {side}.")
    if reasons_only:
        return " ".join(parts)
    parts.append(f"Net: {amount(best.net)}.")
    nexts = []
    for choice in advice.choices[1:]:
        if advice.need is not None and not hopeless:
            nexts.append(f"keep {rank_list(choice.keep)}, which makes it {_starters(choice.chance or 0.0)}, net "
                         f"{amount(choice.net)}")
            continue
        nexts.append(f"keep {rank_list(choice.keep)}, net {amount(choice.net)}, {_less(best.net, choice)}")
    if nexts:
        parts.append(f"Next best: {'; '.join(nexts)}.")
    return " ".join(parts)


# ----------------------------------------------------------------------------------------------- the play
_SCORES_AS = {
    ScoreKind.FIFTEEN: "fifteen",
    ScoreKind.THIRTY_ONE: "thirty-one",
    ScoreKind.PAIR_ROYAL: "a pair royal",
    ScoreKind.DOUBLE_PAIR_ROYAL: "a double pair royal",
}


def _scores(score: Score, card: Card) -> list[str]:
    """What a card pegs: "pairs the eight for two", "makes fifteen for two and a run of three for three"."""
    words = []
    made: list[str] = []
    for item in score.items:
        if item.kind is ScoreKind.PAIR:
            words.append(f"pairs the {card.rank.word} for two")
        elif item.kind is ScoreKind.RUN:
            made.append(f"a run of {number_words(item.points)} for {number_words(item.points)}")
        else:
            made.append(f"{_SCORES_AS[item.kind]} for {number_words(item.points)}")
    if made:
        words.append(f"makes {join_words(made)}")
    return words


def pegs_words(choice: CardChoice) -> str:
    """What a card pegs at once, "makes fifteen for two", or "" when it pegs nothing."""
    return join_words(_scores(choice.score, choice.card) + ([_last_words(choice)] if choice.last else []))


def _grouped(replies: Sequence[Reply]) -> list[tuple[str, Score, int]]:
    """Replies with the ten-cards that score alike (fifteen or thirty-one, no pair) said as one: "ten-cards"; each
    with the plural of its rank, or its rank alone ("seven"), to be said with how many are unseen."""
    tens = [r for r in replies if r.rank.value_in_count == 10 and not r.score.of_kind(ScoreKind.PAIR)
            and not r.score.of_kind(ScoreKind.RUN)]
    grouped: list[tuple[str, Score, int]] = []
    if len(tens) > 1 and len({r.score.total for r in tens}) == 1:
        grouped.append(("ten-card", tens[0].score, sum(r.cards for r in tens)))
        rest = [r for r in replies if r not in tens]
    else:
        rest = list(replies)
    grouped += [(r.rank.word, r.score, r.cards) for r in rest]
    grouped.sort(key=lambda g: (-g[1].total, -g[2]))
    return grouped


def _unseen_cards(what: str, cards: int) -> str:
    """"any of the three sevens you have not seen", "the one seven you have not seen"."""
    if cards == 1:
        return f"the one {what} you have not seen"
    plural = "sixes" if what == "six" else f"{what}s"
    return f"{'either' if cards == 2 else 'any'} of the {number_words(cards)} {plural} you have not seen"


_REPLY_AS = {
    ScoreKind.FIFTEEN: "fifteen",
    ScoreKind.THIRTY_ONE: "thirty-one",
    ScoreKind.PAIR: "a pair",
    ScoreKind.PAIR_ROYAL: "a pair royal",
    ScoreKind.DOUBLE_PAIR_ROYAL: "a double pair royal",
}


def reply_words(score: Score) -> str:
    """What a reply scores: "fifteen for two", "fifteen and a run of three for five"."""
    kinds = [f"a run of {number_words(i.points)}" if i.kind is ScoreKind.RUN else _REPLY_AS[i.kind]
             for i in score.items]
    return f"{join_words(kinds)} for {number_words(score.total)}"


def _danger(choice: CardChoice, advice: PlayAdvice, s: SeatNames) -> str:
    """What the count left means for the next opponent: that they likely must say go, that it is a count to
    avoid, what they could score on it, or that nothing scores; "" when nobody can reply."""
    if advice.opponent is None or choice.count == 31:
        return ""
    name = s.seat(advice.opponent)
    count = number_words(choice.count)
    if choice.fits == 0:
        yours = ", and the go is yours" if advice.go_ours else ""
        return f"{count}, where no card you have not seen fits, so {name} must say go{yours}"
    if choice.go_chance >= 0.5:
        yours = ", and the go is then yours" if advice.go_ours else ""
        chance = number_words(round(choice.go_chance * 100))
        return (f"{count}, where few cards fit under thirty-one, so {name} must say go {chance} times in a "
                f"hundred{yours}")
    if not choice.replies:
        return f"{count}, where nothing {name} lays scores"
    grouped = _grouped(choice.replies)
    what, score, cards = grouped[0]
    if not choice.dangerous_count:
        return f"{count}, where {_unseen_cards(what, cards)} gives {name} {reply_words(score)}"
    # Name the fifteen or thirty-one the count is known for, then anything bigger.
    which, known, many = next(g for g in grouped if g[1].of_kind(ScoreKind.FIFTEEN, ScoreKind.THIRTY_ONE))
    words = f"{count}, a count to avoid, where {_unseen_cards(which, many)} gives {name} {reply_words(known)}"
    if score.total > known.total:
        words += f", and {_unseen_cards(what, cards)} {reply_words(score)}"
    return words


def _card_title(card: Card, capital: bool = True) -> str:
    return f"{'The' if capital else 'the'} {card.rank.word}"


def play_words(advice: PlayAdvice, s: SeatNames) -> str:
    """The play advice: the expert's card and why, then what the other cards risk or give up."""
    best = advice.best
    title = _card_title(best.card)
    if advice.wins:
        return f"{title} wins the game: it {pegs_words(best)}, and you need {number_words(advice.need)}."
    if len(advice.choices) == 1:
        reasons = _play_reasons(best, advice, s)
        tail = f" It {join_words(reasons)}." if reasons else ""
        return f"You can lay only {_card_title(best.card, False)}.{tail}"
    parts = []
    if advice.board:
        opp = s.seat(advice.opponent) if advice.opponent is not None else "the other side"
        parts.append(f"You need {number_words(advice.need)} to win, and {opp} {number_words(advice.opponent_need)}. "
                     f"Playing to the board, {_card_title(best.card, False)} gives you the best chance: about "
                     f"{number_words(round(best.value))} in a hundred.")
    reasons = _play_reasons(best, advice, s)
    if reasons:
        parts.append(f"{'It' if advice.board else title + ': it'} {join_words(reasons)}.")
    elif not advice.board:
        parts.append(f"{title}.")
    for other in advice.choices[1:3]:
        parts.append(_other_words(other, advice, s))
    return " ".join(parts)


def _last_words(choice: CardChoice) -> str:
    return "takes one for the last card" if choice.final else "takes the go for one"


def _play_reasons(choice: CardChoice, advice: PlayAdvice, s: SeatNames) -> list[str]:
    """Why the expert's card (or the only one): what it pegs, then what the count it leaves means."""
    reasons = _scores(choice.score, choice.card)
    if choice.last:
        reasons.append(_last_words(choice))
    if advice.lead and choice.card.value < 5 and advice.opponent is not None:
        reasons.append("is a lead under five, so no card makes fifteen on it")
    else:
        danger = _danger(choice, advice, s)
        if danger and choice.dangerous_count and len(advice.choices) > 1 and \
                all(other.loss >= 0.1 for other in advice.choices[1:]):
            danger += ", but your other cards do worse"
        if danger:
            reasons.append(f"leaves {danger}")
    if advice.lead and choice.backed and advice.opponent is not None and reasons:
        name, rank = s.seat(advice.opponent), choice.card.rank.word
        reasons[-1] += f"; if {name} pairs it, your other {rank} makes a pair royal"
    return reasons


def _other_words(choice: CardChoice, advice: PlayAdvice, s: SeatNames) -> str:
    """What another card gives up, the cost first: "The queen is two and a quarter points worse: it would leave
    twenty, where any of the three jacks you have not seen gives Bob a run of three for three."."""
    title = _card_title(choice.card)
    if advice.board:
        if choice.loss < 1.0:
            return f"{title} is as good."
        return f"{title} gives about {number_words(round(choice.value))} in a hundred."
    if choice.loss < 0.1:
        return f"{title} is as good."
    worse = f"{title} is {loss_words(choice.loss)} worse"
    best = advice.best
    if choice.count == best.count and choice.score.total == best.score.total and choice.last == best.last:
        return f"{worse}: it leaves the same count, and the cards you keep play less well after it."
    reasons = _scores(choice.score, choice.card)
    if choice.last:
        reasons.append(_last_words(choice))
    danger = _danger(choice, advice, s)
    if danger:
        reasons.append(f"leave {danger}")
    if not reasons:
        return f"{worse}."
    return f"{worse}: it would {join_words(_infinitive(reasons))}."


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
