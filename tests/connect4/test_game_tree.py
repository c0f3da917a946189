"""GameTreeType: a tree of grids that looks ahead from the current grid.

Trees are made through the documented operations only and read back by walking them
with getChild, getSibling, getGrid, getLevel and getParent. The oracle of buildGame and
generateLevel is a model game tree built in the test from a grid model (``side`` and
marks, see ``strategies``): below each node, one child per empty square (any empty
square is a move, E18) holding the mark of the player to move, the first player at even
levels and the second at odd ones (E29), down to the depth, with no children for a
finished game (a line, E17, or a full grid). Grids are compared with GridType.equals
against grids built separately from the model, so a node's parent is recognised by its
grid, not by identity. Worths are compared only with WorthType's operations: a leaf's
worth against the implementation's own evaluateGrid of a separately built equal grid
for the first player (E29), a minimax value against one worked out from those worths
with WorthType.lessThan. chooseBest, findBest and adjustLevel are also checked on trees
put together by hand (setChild, setSibling) with worths chosen by the test.

What the document leaves open is accepted either way: after an update only its result
is used (E01); children may come in any order (E28); buildGame may extend a tree or
rebuild it (E28); chooseBest may record values in inner nodes' grids (E30), so after it
only leaves' worths are read; findBest and findMove must return a detached root (E31),
but whether the searched tree is left as it was is not examined, nor the levels they
leave, which adjustLevel renumbers (E37). No value stored in a tree is updated or reused
by the test afterwards (E25).
"""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from speckit.testing import covers, expect, expect_equal

from .model import BLUE, OTHER, RED, winners
from .paths import few
from .strategies import colours
from .test_grid import Maker, picture, squares

MAX_NODES = 160
"""The largest model tree a test walks: every node costs a few dozen operation calls."""

TREE_SIZES = [
    (3, 1),
    (3, 2),
    (3, 3),
    (4, 2),
    (4, 3),
    (4, 3),
    (5, 1),
    (5, 2),
    (5, 3),
    (5, 3),
    (6, 2),
    (6, 3),
    (7, 1),
    (7, 2),
]
"""(empty squares, depth) of the 4 x 4 trees built: at most 157 nodes before finished games prune them."""


# Helpers ------------------------------------------------------------------------------


class TreeMaker(Maker):
    """Maker, plus the grids one move later and level numbers kept for comparisons only.

    A value given to a tree is always made afresh (a tree may keep it, E25); the
    cached level numbers are only ever compared, never stored.
    """

    def __init__(self, impl):
        super().__init__(impl)
        self._probes: dict = {}

    def level_probe(self, n: int):
        if n not in self._probes:
            self._probes[n] = self.level(n)
        return self._probes[n]

    def moved(self, grid, square, colour: str):
        """A separate grid: a clone of the given one with a mark of the colour on the square."""
        ops = self.impl.grid
        return ops.occupySquare(ops.clone(grid), self.location(*square), self.symbol(colour))


def finished(side: int, marks: dict) -> bool:
    """Whether the game on the grid model is over: a line of four, or a full grid."""
    return len(marks) == side * side or bool(winners(side, marks))


def move_text(move) -> str:
    (r, c), colour = move
    return f"{colour} at ({r}, {c})"


class Node:
    """A node of the model game tree."""

    __slots__ = ("marks", "level", "path", "children", "reason", "value", "order")

    def __init__(self, marks: dict, level: int, path: tuple):
        self.marks, self.level, self.path = marks, level, path
        self.children: list[Node] = []
        self.reason = ""
        self.value = None  # its minimax value, an implementation worth, once walked
        self.order: list[Node] = []  # its children in the implementation's order, once walked

    def where(self, side: int) -> str:
        moves = ", then ".join(move_text(m) for m in self.path)
        return (
            f"the node after {moves} ({picture(side, self.marks)})"
            if moves
            else f"the root ({picture(side, self.marks)})"
        )


def game_model(side: int, marks: dict, first: str, depth: int, level: int = 0, path: tuple = ()) -> Node:
    """The model tree: one child per empty square, for the player to move (E29), down to the level ``depth``."""
    node = Node(marks, level, path)
    if finished(side, marks):
        node.reason = "its game is over, so it gets no children"
    elif level >= depth:
        node.reason = f"it lies at level {level}, the depth, so it gets no children"
    else:
        mover = first if level % 2 == 0 else OTHER[first]
        node.reason = (
            f"one child per empty square, each with {mover}'s mark on it ({mover} moves at "
            f"{'even' if level % 2 == 0 else 'odd'} levels, E29)"
        )
        for square in squares(side):
            if square not in marks:
                node.children.append(
                    game_model(side, marks | {square: mover}, first, depth, level + 1, path + ((square, mover),))
                )
    return node


def size(node: Node) -> int:
    return 1 + sum(size(child) for child in node.children)


class Visit:
    """A node of the implementation's tree being checked against its model node."""

    __slots__ = ("tree", "node", "expected", "grid", "parent", "above", "first", "leaf", "children", "worth_checked")

    def __init__(self, tree, node: Node, expected, grid, parent, *, worth_checked: bool = True):
        self.tree, self.node, self.grid = tree, node, grid
        self.expected = expected  # a separate grid equal to the model node's
        self.parent = parent  # a separate grid equal to the parent's; None at the root
        self.worth_checked = worth_checked  # whether a leaf's worth is examined
        self.above = self.first = None  # getParent and getChild of the tree
        self.leaf = False
        self.children: list = []  # the trees getChild and getSibling lead to, in order


class Walk:
    """Checks an implementation's tree against a model tree, one layer of nodes at a time.

    At each node: the grid (GridType.equals with a separately built grid), the level
    (unless levels are not examined), the parent (by its grid), the children (exactly
    the model's, in any order, E28) and, at a leaf, the worth (evaluateGrid of the
    leaf's grid for the first player, E29). Each model node is given its minimax value,
    worked out with WorthType.lessThan, and its children in the implementation's order.

    The nodes of one depth are checked together, each check in the order above, so that
    their questions can travel together (``impl.batch``); in the sandbox a whole layer
    then costs a few round trips instead of a few per node.
    """

    def __init__(self, make: TreeMaker, side: int, first: str, *, levels: int | None = 0, what: str = "the tree"):
        self.make, self.impl, self.side, self.first = make, make.impl, side, first
        self.player = make.player(first)  # only passed to evaluateGrid, which keeps nothing
        self.levels = levels  # a node's level is this plus the moves on its model path; None: not examined
        self.what = what  # how failure messages name the tree

    def check(self, tree, node: Node, *, leaf_worth: bool = True):
        """Check the tree whose root has no parent against ``node``; return the root's minimax value."""
        tg = self.impl.game_tree
        expect(not tg.isEmpty(tree), f"{self.where(node)} is a node (isEmpty false)")
        layer = [
            Visit(tree, node, self.make.grid(self.side, node.marks), tg.getGrid(tree), None, worth_checked=leaf_worth)
        ]
        layers = []
        while layer:
            self.check_nodes(layer)
            self.find_children(layer)
            layers.append(layer)
            layer = self.match_layer(layer)
        for layer in reversed(layers):
            self.give_values(layer)
        return node.value

    def where(self, node: Node) -> str:
        return f"{node.where(self.side)} of {self.what}"

    def check_nodes(self, layer: list[Visit]) -> None:
        """Each node's grid, level and parent."""
        impl, tg, ig = self.impl, self.impl.game_tree, self.impl.grid
        for visit in layer:
            visit.above, visit.first = tg.getParent(visit.tree), tg.getChild(visit.tree)

        def level_is(visit: Visit):
            if self.levels is None:
                return None
            return impl.level_number.equals(
                tg.getLevel(visit.tree), self.make.level_probe(self.levels + len(visit.node.path))
            )

        facts = impl.batch(
            lambda: [
                (ig.equals(v.grid, v.expected), level_is(v), tg.isEmpty(v.above), tg.isEmpty(v.first)) for v in layer
            ]
        )
        for visit, (same_grid, same_level, orphan, leaf) in zip(layer, facts, strict=True):
            node, where = visit.node, self.where(visit.node)
            expect(same_grid, f"getGrid of {where} holds {picture(self.side, node.marks)}")
            if self.levels is not None:
                expect(same_level, f"getLevel of {where} is {self.levels + len(node.path)}")
            if visit.parent is None:
                expect(orphan, f"getParent of {where} is the empty tree: it is a root")
            else:
                expect(not orphan, f"getParent of {where} is its parent, not the empty tree")
            visit.leaf = leaf
        below = [v for v in layer if v.parent is not None]
        same_parents = impl.batch(lambda: [ig.equals(tg.getGrid(v.above), v.parent) for v in below])
        for visit, same in zip(below, same_parents, strict=True):
            expect(same, f"getParent of {self.where(visit.node)} holds its parent's grid")

    def find_children(self, layer: list[Visit]) -> None:
        """Each node's children, by getChild and then getSibling until the empty tree (a step for all at once)."""
        inner = [v for v in layer if not v.leaf]
        for visit, children in zip(
            inner,
            children_from(self.impl, [v.first for v in inner], [len(v.node.children) for v in inner]),
            strict=True,
        ):
            visit.children = children
        for visit in layer:
            node = visit.node
            expect_equal(
                len(visit.children),
                len(node.children),
                f"the number of children of {self.where(node)} (getChild, then getSibling): {node.reason}",
            )

    def match_layer(self, layer: list[Visit]) -> list[Visit]:
        """:meth:`match_children` of every node of the layer; the children's visits, in order."""
        impl, tg, ig = self.impl, self.impl.game_tree, self.impl.grid
        grids = [[tg.getGrid(child) for child in visit.children] for visit in layer]
        built = [
            [self.make.moved(visit.expected, *candidate.path[-1]) for candidate in visit.node.children]
            for visit in layer
        ]
        # Children usually come in the model's order: ask that first, for the whole layer at once.
        in_order = impl.batch(
            lambda: [
                [ig.equals(grid, same) for grid, same in zip(g, b, strict=True)]
                for g, b in zip(grids, built, strict=True)
            ]
        )
        return [
            child
            for visit, g, b, answers in zip(layer, grids, built, in_order, strict=True)
            for child in self.match_children(visit, g, b, answers)
        ]

    def match_children(self, visit: Visit, grids: list, built: list, in_order: list) -> list[Visit]:
        """Pair each child with the model child whose grid it holds, each once; the children's visits.

        ``grids``: the children's grids; ``built``: the model children's, made separately;
        ``in_order``: whether each child's grid equals the model child's in the same place."""
        ig, node = self.impl.grid, visit.node
        answers = {(number, number): answer for number, answer in enumerate(in_order)}
        pending, visits = list(range(len(node.children))), []
        node.order = []
        for number, grid in enumerate(grids):
            match = None
            for candidate in pending:
                if (number, candidate) not in answers:
                    answers[(number, candidate)] = ig.equals(grid, built[candidate])
                if answers[(number, candidate)]:
                    match = candidate
                    break
            if match is None:
                got = self.make.read_grid(grid, self.side)
                expect(
                    False,
                    f"child {number + 1} of {self.where(node)} holds one of the grids one legal move later, each "
                    f"once: {node.reason}",
                    expected=" or ".join(picture(self.side, node.children[c].marks) for c in pending),
                    actual=picture(self.side, got),
                )
            pending.remove(match)
            child = node.children[match]
            node.order.append(child)
            visits.append(Visit(visit.children[number], child, built[match], grid, visit.expected))
        return visits

    def give_values(self, layer: list[Visit]) -> None:
        """Leaves: evaluateGrid for the first player, their worth checked; inner nodes: the minimax of their
        children's."""
        impl, ig = self.impl, self.impl.grid
        leaves = [v for v in layer if not v.node.children]
        for visit in leaves:
            visit.node.value = ig.evaluateGrid(visit.expected, self.player)
        checked = [v for v in leaves if v.worth_checked]
        agree = impl.batch(lambda: [impl.worth.equals(ig.getWorth(v.grid), v.node.value) for v in checked])
        for visit, same in zip(checked, agree, strict=True):
            expect(
                same,
                f"the worth of the leaf {self.where(visit.node)} is evaluateGrid of its grid for the first player, "
                f"{self.first} (E29)",
            )
        inner = [v.node for v in layer if v.node.children]
        best = {id(node): node.order[0].value for node in inner}
        for step in range(1, max((len(node.order) for node in inner), default=0)):
            rivals = [(node, node.order[step].value) for node in inner if step < len(node.order)]
            wins = impl.batch(
                lambda: [better(impl, value, best[id(node)], node.level % 2 == 0) for node, value in rivals]  # noqa: B023 - run before the loop moves on
            )
            for (node, value), win in zip(rivals, wins, strict=True):
                if win:
                    best[id(node)] = value
        for node in inner:
            node.value = best[id(node)]


def better(impl, value, best, maximising: bool):
    """Whether a worth beats the best so far: greater when maximising, less when minimising (WorthType.lessThan)."""
    return impl.worth.lessThan(best, value) if maximising else impl.worth.lessThan(value, best)


def walk(
    make: TreeMaker,
    tree,
    side: int,
    first: str,
    node: Node,
    *,
    levels: int | None = 0,
    root_worth: bool = False,
    what: str = "the tree",
):
    """Check a whole tree whose root has no parent; return the root's minimax value."""
    return Walk(make, side, first, levels=levels, what=what).check(tree, node, leaf_worth=root_worth)


def players(make: TreeMaker, first: str):
    """A fresh pair of players: the first of the given colour, the second of the other."""
    return make.player(first), make.player(OTHER[first])


# Grid models for trees ------------------------------------------------------------------


@st.composite
def positions(draw, side: int = 4, empties=st.integers(3, 7), finished_ok: bool = False):
    """A grid model with ``empties`` empty squares and marks on all the others.

    On 4 x 4 grids the marks are red and blue alternately in a random order, as in play
    (as many red as blue, or one more); 5 x 5 grids start from a pattern with no line (a
    random fill of 5 x 5 nearly always has one), with a few squares flipped. Unless
    ``finished_ok``, the game on it is not over.
    """
    k = draw(empties)
    cells = squares(side)
    if side == 4:
        order = draw(st.permutations(cells))
        marks = {square: (RED, BLUE)[i % 2] for i, square in enumerate(order[k:])}
    else:
        swap = draw(st.booleans())
        marks = {(r, c): (RED, BLUE)[(c // 2 + r + swap) % 2] for r, c in cells}
        for square in draw(st.lists(st.sampled_from(cells), max_size=2)):
            marks[square] = OTHER[marks[square]]
        for square in draw(st.lists(st.sampled_from(cells), min_size=k, max_size=k, unique=True)):
            del marks[square]
    if not finished_ok:
        assume(not finished(side, marks))
    return side, marks


@st.composite
def games(draw, finished_ok: bool = True):
    """A grid model, a first player's colour and a depth, whose model tree is small enough to walk."""
    if draw(st.integers(0, 4)) == 0:
        side, (k, depth) = 5, draw(st.sampled_from([(3, 1), (3, 2), (4, 1), (4, 2), (5, 1), (5, 2)]))
    else:
        side, (k, depth) = 4, draw(st.sampled_from(TREE_SIZES))
    side, marks = draw(positions(side, st.just(k), finished_ok=finished_ok))
    return side, marks, draw(colours), depth


# Hand-made trees: any shape, worths chosen by the test -------------------------------------


class Hand:
    """A node of a tree put together by hand: a grid all its own (one mark), a worth, children."""

    def __init__(self, number: int, level: int, worth: int, children: list):
        self.number, self.level, self.worth, self.children = number, level, worth, children
        row, column = divmod(number % 16, 4)
        self.marks = {(row + 1, column + 1): RED if number < 16 else BLUE}

    def minimax(self) -> int:
        if not self.children:
            return self.worth
        values = [child.minimax() for child in self.children]
        return max(values) if self.level % 2 == 0 else min(values)

    def where(self, side: int = 4) -> str:
        return f"the node {self.number} ({picture(side, self.marks)}, level {self.level})"

    def describe(self) -> str:
        if not self.children:
            return f"{self.number}:{self.worth}"
        return f"{self.number}[{' '.join(child.describe() for child in self.children)}]"


@st.composite
def hand_trees(draw, levels=st.integers(0, 2), max_nodes: int = 13):
    """A tree of 2 to ``max_nodes`` nodes, 1 to 3 children each, 3 levels below the root at most.

    Every node has a worth from -4 to 4 (ties are frequent, so findBest has several
    children to choose from, E44); an inner node's own worth is there to be ignored by chooseBest.
    """
    budget = [max_nodes - 1]
    numbers = iter(range(max_nodes))

    def grow(level: int, depth: int, root: bool) -> Hand:
        number = next(numbers)
        children = []
        if depth > 0 and (root or draw(st.booleans())):
            for _ in range(draw(st.integers(1, 3))):
                if budget[0] <= 0:
                    break
                budget[0] -= 1
                children.append(None)
        worth = draw(st.integers(-4, 4))
        children = [grow(level + 1, depth - 1, False) for _ in children]
        return Hand(number, level, worth, children)

    return grow(draw(levels), 3, True)


def build_hand(make: TreeMaker, node: Hand):
    """The implementation's tree for a hand-made model, put together bottom up (setSibling, setChild)."""
    ops = make.impl.game_tree
    grid = make.impl.grid.setWorth(make.grid(4, node.marks), make.worth(node.worth))
    tree = ops.newGameTreeType(grid, make.level(node.level))
    if node.children:
        linked = build_hand(make, node.children[-1])
        for child in reversed(node.children[:-1]):
            linked = ops.setSibling(build_hand(make, child), linked)
        tree = ops.setChild(tree, linked)
    return tree


def check_hand(make: TreeMaker, tree, node: Hand, what: str, *, level: int | None = None) -> None:
    """The tree has the model's shape (children in any order), grids and leaf worths; levels from ``level`` if given.

    The nodes of one depth are checked together, each in the order of the checks of
    :func:`check_hand_layer`, so that their questions travel together (``impl.batch``).
    """
    root_empty = make.impl.game_tree.isEmpty(tree)
    expect(not root_empty, f"{node.where()} of {what} is a node (isEmpty false)", actual=root_empty)
    layer = [(tree, node, level)]  # every tree here is known to be a node: the root above, the children by their walk
    while layer:
        inner = check_hand_layer(make, layer, what)
        layer = match_hand_children(make, with_children(make.impl, inner), what)


def check_hand_layer(make: TreeMaker, layer: list, what: str) -> list:
    """Each ``(tree, model node, level)`` of one depth is a node with its grid, its level (unless None), and, a
    leaf, no child and its worth; the inner nodes, with their first child (None when getChild is empty)."""
    impl = make.impl
    tg = impl.game_tree

    def facts(tree, node: Hand, level):
        leaf = not node.children
        first = tg.getChild(tree)
        return (
            tg.isEmpty(tree),
            impl.grid.equals(tg.getGrid(tree), make.grid(4, node.marks)),
            None if level is None else impl.level_number.equals(tg.getLevel(tree), make.level_probe(level)),
            first,
            tg.isEmpty(first),
            impl.worth.equals(impl.grid.getWorth(tg.getGrid(tree)), make.worth(node.worth)) if leaf else None,
        )

    answers = impl.batch(lambda: [facts(*visit) for visit in layer])
    inner = []
    for (tree, node, level), (empty, same_grid, same_level, first, no_child, same_worth) in zip(
        layer, answers, strict=True
    ):
        where = f"{node.where()} of {what}"
        expect(not empty, f"{where} is a node (isEmpty false)", actual=empty)
        expect(same_grid, f"getGrid of {where} holds its grid, {picture(4, node.marks)}", actual=same_grid)
        if level is not None:
            expect(same_level, f"getLevel of {where} is {level}", actual=same_level)
        if not node.children:
            expect(no_child, f"{where} is still a leaf", actual=no_child)
            expect(
                same_worth,
                f"the leaf {where} keeps its worth {node.worth} (E30: only inner nodes may be given values)",
                actual=same_worth,
            )
        else:
            inner.append((tree, node, level, None if no_child else first))
    return inner


def with_children(impl, inner: list) -> list:
    """Each inner node ``(tree, node, level, first child)`` with its children instead: none when getChild is the
    empty tree, else by getSibling from the first."""
    starting = [(node, first) for _, node, _, first in inner if first is not None]
    walked = iter(children_from(impl, [first for _, first in starting], [len(node.children) for node, _ in starting]))
    return [(tree, node, level, [] if first is None else next(walked)) for tree, node, level, first in inner]


def match_hand_children(make: TreeMaker, inner: list, what: str) -> list:
    """Each inner node's children against its model children, every child against every model child at once;
    each child takes the first model child still unmatched. The next depth's ``(tree, model node, level)``."""
    impl = make.impl
    tg = impl.game_tree

    def compared(node: Hand, found: list) -> list:
        built = [make.grid(4, c.marks) for c in node.children]  # only ever compared
        return [[impl.grid.equals(tg.getGrid(child), grid) for grid in built] for child in found]

    grids = impl.batch(lambda: [compared(node, found) for _, node, _, found in inner])
    layer = []
    for (_tree, node, level, found), same in zip(inner, grids, strict=True):
        where = f"{node.where()} of {what}"
        expect_equal(len(found), len(node.children), f"the number of children of {where}")
        pending = list(range(len(node.children)))
        for number, child in enumerate(found):
            match = next((c for c in pending if same[number][c]), None)
            expect(match is not None, f"every child of {where} is one of its children, each once", actual=False)
            pending.remove(match)
            layer.append((child, node.children[match], None if level is None else level + 1))
    return layer


# The empty tree and one-node trees ----------------------------------------------------------


@covers("GameTreeType.newGameTreeType", "GameTreeType.isEmpty")
def test_new_tree_is_empty(impl):
    expect(impl.game_tree.isEmpty(impl.game_tree.newGameTreeType()), "newGameTreeType() is the empty tree")


@covers(
    "GameTreeType.newGameTreeType",
    "GameTreeType.isEmpty",
    "GameTreeType.getGrid",
    "GameTreeType.getLevel",
    "GameTreeType.getParent",
    "GameTreeType.getChild",
    "GameTreeType.getSibling",
)
@given(
    model=positions(empties=st.integers(0, 16), finished_ok=True),
    level=st.integers(0, 8),
    above=st.none() | st.tuples(positions(empties=st.integers(1, 16), finished_ok=True), st.integers(0, 8)),
)
def test_new_tree_of_a_grid_is_one_node(impl, model, level, above):
    side, marks = model
    make, ops = TreeMaker(impl), impl.game_tree
    made = f"newGameTreeType({picture(side, marks)}, level {level}"
    if above is None:
        tree = ops.newGameTreeType(make.grid(side, marks), make.level(level))
        made += ")"
    else:
        (_, parent_marks), parent_level = above
        parent = ops.newGameTreeType(make.grid(side, parent_marks), make.level(parent_level))
        tree = ops.newGameTreeType(make.grid(side, marks), make.level(level), parent)
        made += f", the one-node tree of {picture(side, parent_marks)} at level {parent_level})"
    expect(not ops.isEmpty(tree), f"{made} is not empty")
    expect(impl.grid.equals(ops.getGrid(tree), make.grid(side, marks)), f"getGrid of {made} holds the grid")
    expect(impl.level_number.equals(ops.getLevel(tree), make.level_probe(level)), f"getLevel of {made} is {level}")
    expect(ops.isEmpty(ops.getChild(tree)), f"getChild of {made} is the empty tree (E26)")
    expect(ops.isEmpty(ops.getSibling(tree)), f"getSibling of {made} is the empty tree (E26)")
    if above is None:
        expect(ops.isEmpty(ops.getParent(tree)), f"getParent of {made} is the empty tree (E26)")
    else:
        parent = ops.getParent(tree)
        expect(not ops.isEmpty(parent), f"getParent of {made} is the parent given, not the empty tree")
        expect(
            impl.grid.equals(ops.getGrid(parent), make.grid(side, parent_marks)),
            f"getParent of {made} holds the parent's grid",
        )
        expect(
            impl.level_number.equals(ops.getLevel(parent), make.level_probe(parent_level)),
            f"getParent of {made} is at the parent's level, {parent_level}",
        )


@covers(
    "GameTreeType.setGrid",
    "GameTreeType.isEmpty",
    "GameTreeType.getGrid",
    "GameTreeType.getLevel",
    "GameTreeType.getParent",
    "GameTreeType.getChild",
    "GameTreeType.getSibling",
    "LevelNumberType.newLevelNumberType",
)
@given(model=positions(empties=st.integers(0, 16), finished_ok=True))
def test_set_grid_on_the_empty_tree_makes_a_root_at_level_0(impl, model):
    side, marks = model
    make, ops = TreeMaker(impl), impl.game_tree
    tree = ops.setGrid(ops.newGameTreeType(), make.grid(side, marks))
    made = f"setGrid(newGameTreeType(), {picture(side, marks)})"
    expect(not ops.isEmpty(tree), f"{made} is a one-node tree, not empty (E27)")
    expect(impl.grid.equals(ops.getGrid(tree), make.grid(side, marks)), f"getGrid of {made} holds the grid (E27)")
    expect(
        impl.level_number.equals(ops.getLevel(tree), make.level_probe(0)),
        f"getLevel of {made} equals newLevelNumberType(), 0 (E27)",
    )
    expect(ops.isEmpty(ops.getParent(tree)), f"getParent of {made} is the empty tree (E27)")
    expect(ops.isEmpty(ops.getChild(tree)), f"getChild of {made} is the empty tree (E27)")
    expect(ops.isEmpty(ops.getSibling(tree)), f"getSibling of {made} is the empty tree (E27)")


GRID_POOL = st.lists(
    positions(empties=st.integers(10, 16), finished_ok=True).map(lambda model: model[1]), min_size=3, max_size=3
)
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["grid", "level", "child", "sibling", "parent"]),
        st.integers(0, 2),
        st.integers(0, 6),
        st.booleans(),
    ),
    min_size=1,
    max_size=5,
)


@covers(
    "GameTreeType.setGrid",
    "GameTreeType.getGrid",
    "GameTreeType.setLevel",
    "GameTreeType.getLevel",
    "GameTreeType.setChild",
    "GameTreeType.getChild",
    "GameTreeType.setSibling",
    "GameTreeType.getSibling",
    "GameTreeType.setParent",
    "GameTreeType.getParent",
    "GameTreeType.isEmpty",
)
@given(pool=GRID_POOL, start=st.tuples(st.integers(0, 2), st.integers(0, 6)), steps=STEPS)
def test_each_set_changes_its_component_and_nothing_else(impl, pool, start, steps):
    make, ops = TreeMaker(impl), impl.game_tree
    expected = [make.grid(4, marks) for marks in pool]  # only ever compared
    tree = ops.newGameTreeType(make.grid(4, pool[start[0]]), make.level(start[1]))
    model = {"grid": start, "child": None, "sibling": None, "parent": None}
    done = [f"newGameTreeType(grid {start[0] + 1}, level {start[1]})"]

    def one_node(grid: int, level: int):
        return ops.newGameTreeType(make.grid(4, pool[grid]), make.level(level))

    for component, grid, level, empty in steps:
        if component == "grid":
            tree = ops.setGrid(tree, make.grid(4, pool[grid]))
            model["grid"] = (grid, model["grid"][1])
            done.append(f"setGrid(grid {grid + 1})")
        elif component == "level":
            tree = ops.setLevel(tree, make.level(level))
            model["grid"] = (model["grid"][0], level)
            done.append(f"setLevel({level})")
        else:
            value = ops.newGameTreeType() if empty else one_node(grid, level)
            tree = getattr(ops, f"set{component.capitalize()}")(tree, value)
            model[component] = None if empty else (grid, level)
            given = "the empty tree" if empty else f"a one-node tree of grid {grid + 1} at level {level}"
            done.append(f"set{component.capitalize()}({given})")
        where = f"the tree after {'; '.join(done)} (grids: {', '.join(picture(4, m) for m in pool)})"
        # Whether the tree and its links are empty, then the grid and level of each that is a node and
        # should be: two round trips, the answers then judged in the order of the checks.
        links = {link: getattr(ops, f"get{link}")(tree) for link in ("Child", "Sibling", "Parent")}
        empty = impl.batch(
            lambda: {"tree": ops.isEmpty(tree), **{link: ops.isEmpty(got) for link, got in links.items()}}  # noqa: B023 - run before the loop moves on
        )
        nodes = {"tree": (tree, model["grid"])} | {
            link: (got, model[link.lower()]) for link, got in links.items() if model[link.lower()] is not None
        }
        held = impl.batch(
            lambda nodes=nodes, empty=empty: {
                name: (
                    impl.grid.equals(ops.getGrid(node), expected[at[0]]),
                    impl.level_number.equals(ops.getLevel(node), make.level_probe(at[1])),
                )
                for name, (node, at) in nodes.items()
                if not empty[name]
            }
        )
        expect(not empty["tree"], f"{where} is not empty", actual=empty["tree"])
        grid_number, level_number = model["grid"]
        expect(held["tree"][0], f"getGrid of {where} is grid {grid_number + 1}", actual=held["tree"][0])
        expect(held["tree"][1], f"getLevel of {where} is {level_number}", actual=held["tree"][1])
        for link in links:
            if model[link.lower()] is None:
                expect(empty[link], f"get{link} of {where} is the empty tree", actual=empty[link])
                continue
            grid_number, level_number = model[link.lower()]
            expect(not empty[link], f"get{link} of {where} is the tree set, not empty", actual=empty[link])
            expect(held[link][0], f"get{link} of {where} holds grid {grid_number + 1}", actual=held[link][0])
            expect(held[link][1], f"get{link} of {where} is at level {level_number}", actual=held[link][1])


# Growing the tree ------------------------------------------------------------------------------


@covers(
    "GameTreeType.generateLevel",
    "GameTreeType.getChild",
    "GameTreeType.getSibling",
    "GameTreeType.getGrid",
    "GameTreeType.getLevel",
    "GameTreeType.getParent",
    "GridType.evaluateGrid",  # each child's worth is its evaluateGrid (E29)
)
@given(model=positions(empties=st.integers(1, 10), finished_ok=True), first=colours, level=st.integers(0, 3))
def test_generate_level_gives_one_child_per_empty_square(impl, model, first, level):
    side, marks = model
    make = TreeMaker(impl)
    tree = impl.game_tree.newGameTreeType(make.grid(side, marks), make.level(level))
    tree = impl.game_tree.generateLevel(tree, *players(make, first))
    node = game_model(side, marks, first, level + 1, level)
    what = f"generateLevel(the one-node tree of {picture(side, marks)} at level {level}, first player {first})"
    walk(make, tree, side, first, node, levels=level, what=what)


@covers(
    "GameTreeType.buildGame",
    "GameTreeType.getChild",
    "GameTreeType.getSibling",
    "GameTreeType.getGrid",
    "GameTreeType.getLevel",
    "GameTreeType.getParent",
    "GameTreeType.isEmpty",
    "GameTreeType.chooseBest",
)
@given(game=games(), start=st.sampled_from(["empty", "root", "extend"]), data=st.data())
def test_build_game_holds_every_legal_move_down_to_the_depth(impl, game, start, data):
    side, marks, first, depth = game
    make, ops = TreeMaker(impl), impl.game_tree
    if start == "empty":
        tree, made = ops.newGameTreeType(), "the empty tree"
    elif start == "root":
        tree = ops.newGameTreeType(make.grid(side, marks), make.level(0))
        made = "a one-node tree of the grid at level 0"
    else:
        before = data.draw(st.integers(1, depth), label="depth of the tree extended")
        tree = ops.buildGame(ops.newGameTreeType(), make.grid(side, marks), *players(make, first), make.level(before))
        made = f"a tree already built to depth {before} (E28: extended or rebuilt)"
        if data.draw(st.booleans(), label="chooseBest in between") and not ops.isEmpty(ops.getChild(tree)):
            ops.chooseBest(tree)
            made += " and searched by chooseBest (E30)"
    tree = ops.buildGame(tree, make.grid(side, marks), *players(make, first), make.level(depth))
    what = f"buildGame({made}, {picture(side, marks)}, first player {first}, depth {depth})"
    walk(make, tree, side, first, game_model(side, marks, first, depth), what=what)
    expect(ops.isEmpty(ops.getSibling(tree)), f"getSibling of the root of {what} is the empty tree")


@covers(
    "GameTreeType.buildGame",
    "GameTreeType.getChild",
    "GameTreeType.getGrid",
    "GameTreeType.getLevel",
    "GameTreeType.isEmpty",
)
@given(model=positions(empties=st.integers(1, 10)), first=colours, start=st.sampled_from(["empty", "root"]))
def test_build_game_to_depth_0_is_the_root_alone(impl, model, first, start):
    """Depth 0 is a level number like any other: the tree stops at its root, so even a game
    that goes on gets no children (E28)."""
    side, marks = model
    make, ops = TreeMaker(impl), impl.game_tree
    if start == "empty":
        tree, made = ops.newGameTreeType(), "the empty tree"
    else:
        tree, made = (
            ops.newGameTreeType(make.grid(side, marks), make.level(0)),
            "a one-node tree of the grid at level 0",
        )
    tree = ops.buildGame(tree, make.grid(side, marks), *players(make, first), make.level(0))
    what = f"buildGame({made}, {picture(side, marks)}, first player {first}, depth 0)"
    walk(make, tree, side, first, game_model(side, marks, first, 0), what=what)


@covers("GameTreeType.buildGame", "GameTreeType.findMove", "GameTreeType.adjustLevel", "GameTreeType.chooseBest")
@given(
    data=st.data(),
    model=positions(empties=st.integers(4, 7)),
    first=colours,
    before=st.integers(2, 3),
    searched=st.booleans(),
)
def test_build_game_grows_a_tree_moved_down_two_levels(impl, data, model, first, before, searched):
    side, marks = model
    make, ops = TreeMaker(impl), impl.game_tree
    free = [s for s in squares(side) if s not in marks]
    one = data.draw(st.sampled_from(free), label="first move")
    after_one = marks | {one: first}
    assume(not finished(side, after_one))
    two = data.draw(st.sampled_from([s for s in free if s != one]), label="second move")
    after_two = after_one | {two: OTHER[first]}
    assume(not finished(side, after_two))
    sizes = [d for d in (1, 2, 3) if size(game_model(side, after_two, first, d)) <= MAX_NODES]
    depth = data.draw(st.sampled_from(sizes), label="depth")

    tree = ops.buildGame(ops.newGameTreeType(), make.grid(side, marks), *players(make, first), make.level(before))
    if searched:
        ops.chooseBest(tree)
    tree = ops.findMove(tree, make.grid(side, after_one))
    tree = ops.findMove(tree, make.grid(side, after_two))
    tree = ops.adjustLevel(tree)
    tree = ops.buildGame(tree, make.grid(side, after_two), *players(make, first), make.level(depth))
    what = (
        f"buildGame to depth {depth} of the tree built to depth {before} from {picture(side, marks)} for first "
        f"player {first}"
        f"{', searched by chooseBest,' if searched else ''} moved down to {move_text((one, first))} then "
        f"{move_text((two, OTHER[first]))} (findMove twice, adjustLevel): extended or rebuilt (E28)"
    )
    walk(make, tree, side, first, game_model(side, after_two, first, depth), what=what)


# Choosing the best move ---------------------------------------------------------------------------


@covers("GameTreeType.chooseBest", "GameTreeType.newGameTreeType", "GameTreeType.setChild", "GameTreeType.setSibling")
@given(node=hand_trees())
def test_choose_best_is_the_minimax_value_of_a_tree_made_by_hand(impl, node):
    make = TreeMaker(impl)
    tree = build_hand(make, node)
    expected = node.minimax()
    got = impl.game_tree.chooseBest(tree)
    expect(
        impl.worth.equals(got, make.worth(expected)),
        f"chooseBest of the tree {node.describe()} (node:worth, children in brackets; root at level {node.level}) "
        f"is its minimax value {expected}: the greatest of the children's values at even levels, the least at odd "
        "levels, a leaf's its worth; inner nodes' own worths do not count (E30)",
    )


@covers("GameTreeType.findBest", "GameTreeType.chooseBest", "GameTreeType.getParent", "GameTreeType.getSibling")
@given(node=hand_trees())
def test_find_best_returns_a_best_child_as_a_root(impl, node):
    make, ops = TreeMaker(impl), impl.game_tree
    tree = build_hand(make, node)
    value = node.minimax()
    found = ops.findBest(tree, ops.chooseBest(tree))
    what = f"findBest(the tree {node.describe()}, its chooseBest value {value}) (root at level {node.level})"
    expect(not ops.isEmpty(found), f"{what} is a tree")
    best = found_among(make, found, 4, [child for child in node.children if child.minimax() == value], what)
    expect(ops.isEmpty(ops.getParent(found)), f"getParent of {what} is the empty tree: it is a root (E31)")
    expect(ops.isEmpty(ops.getSibling(found)), f"getSibling of {what} is the empty tree: it is a root (E31)")
    check_hand(make, found, best, what)


def found_among(make: TreeMaker, found, side: int, tied: list, what: str):
    """The child of ``tied`` (the root's children with the best value) whose grid the root
    of ``found`` holds: any of them, when several are (E44)."""
    impl = make.impl
    grids, root = [make.grid(side, child.marks) for child in tied], impl.game_tree.getGrid(found)
    matches = impl.batch(lambda: [impl.grid.equals(root, grid) for grid in grids])
    best = next((child for child, match in zip(tied, matches, strict=True) if match), None)
    expect(
        best is not None,
        f"{what} is a child whose minimax value is the value given (any one when several are, E44): "
        + " or ".join(child.where(side) for child in tied),
    )
    return best


@covers(
    "GameTreeType.chooseBest",
    "GameTreeType.findBest",
    "GameTreeType.buildGame",
    "GameTreeType.getParent",
    "GameTreeType.getSibling",
)
@given(game=games(finished_ok=False))
def test_choose_best_and_find_best_on_a_built_game(impl, game):
    side, marks, first, depth = game
    make, ops = TreeMaker(impl), impl.game_tree
    tree = ops.buildGame(ops.newGameTreeType(), make.grid(side, marks), *players(make, first), make.level(depth))
    node = game_model(side, marks, first, depth)
    what = f"buildGame(the empty tree, {picture(side, marks)}, first player {first}, depth {depth})"
    value = walk(make, tree, side, first, node, what=what)
    got = ops.chooseBest(tree)
    right, ties = impl.batch(
        lambda: (impl.worth.equals(got, value), [impl.worth.equals(child.value, value) for child in node.order])
    )
    expect(
        right,
        f"chooseBest of {what} is the minimax value of the leaves' worths (evaluateGrid for {first}): "
        "the greatest at even levels, the least at odd levels (E29, E30)",
        actual=right,
    )
    found = ops.findBest(tree, got)
    result = f"findBest({what}, its chooseBest value)"
    expect(not ops.isEmpty(found), f"{result} is a tree")
    expect(ops.isEmpty(ops.getSibling(found)), f"getSibling of {result} is the empty tree: it is a root (E31)")
    # Equal lengths, but strict=False: a change to this test's code changes its examples (see CONTRIBUTING).
    best = found_among(make, found, side, [child for child, tie in zip(node.order, ties, strict=False) if tie], result)
    walk(
        make, found, side, first, best, levels=None, root_worth=True, what=f"{result} (E31: detached, its subtree kept)"
    )


@covers("GameTreeType.findMove", "GameTreeType.buildGame", "GameTreeType.getParent", "GameTreeType.getSibling")
@given(game=games(finished_ok=False), data=st.data())
def test_find_move_returns_the_child_with_the_grid_as_a_root(impl, game, data):
    side, marks, first, depth = game
    make, ops = TreeMaker(impl), impl.game_tree
    tree = ops.buildGame(ops.newGameTreeType(), make.grid(side, marks), *players(make, first), make.level(depth))
    square = data.draw(st.sampled_from([s for s in squares(side) if s not in marks]), label="move")
    child = game_model(side, marks | {square: first}, first, depth, 1, ((square, first),))
    found = ops.findMove(tree, make.grid(side, child.marks))
    what = (
        f"findMove(buildGame(the empty tree, {picture(side, marks)}, first player {first}, depth {depth}), "
        f"{picture(side, child.marks)} with worth 0 (E22: worths aside))"
    )
    expect(not ops.isEmpty(found), f"{what} is a tree")
    expect(ops.isEmpty(ops.getSibling(found)), f"getSibling of {what} is the empty tree: it is a root (E31)")
    walk(
        make, found, side, first, child, levels=None, root_worth=True, what=f"{what} (E31: detached, its subtree kept)"
    )


# Renumbering ---------------------------------------------------------------------------------------


@covers("GameTreeType.adjustLevel", "GameTreeType.getLevel")
@given(node=hand_trees(levels=st.integers(1, 3)))
def test_adjust_level_renumbers_a_tree_from_0(impl, node):
    make = TreeMaker(impl)
    tree = impl.game_tree.adjustLevel(build_hand(make, node))
    check_hand(
        make, tree, node, f"adjustLevel(the tree {node.describe()} with its root at level {node.level}) (E37)", level=0
    )


@covers("GameTreeType.adjustLevel", "GameTreeType.findBest", "GameTreeType.findMove", "GameTreeType.chooseBest")
@given(
    data=st.data(),
    model=positions(empties=st.integers(3, 5)),
    first=colours,
    depth=st.integers(2, 3),
    down=st.integers(1, 2),
)
def test_adjust_level_renumbers_a_tree_moved_down(impl, data, model, first, depth, down):
    side, marks = model
    make, ops = TreeMaker(impl), impl.game_tree
    tree = ops.buildGame(ops.newGameTreeType(), make.grid(side, marks), *players(make, first), make.level(depth))
    tree = ops.findBest(tree, ops.chooseBest(tree))
    steps = ["findBest of its chooseBest value"]
    after = make.read_grid(ops.getGrid(tree), side)
    path = tuple((s, c) for s, c in after.items() if s not in marks)
    expect_equal(len(path), 1, f"findBest of the tree built from {picture(side, marks)} holds a grid one move later")
    if down == 2 and not finished(side, after):
        free = [s for s in squares(side) if s not in after]
        square = data.draw(st.sampled_from(free), label="second move")
        after = after | {square: OTHER[first]}
        path += ((square, OTHER[first]),)
        tree = ops.findMove(tree, make.grid(side, after))
        steps.append(f"findMove of {picture(side, after)}")
    tree = ops.adjustLevel(tree)
    what = (
        f"adjustLevel of the tree built from {picture(side, marks)} for first player {first} to depth {depth}, "
        f"moved down by {' then '.join(steps)} (E37)"
    )
    walk(
        make,
        tree,
        side,
        first,
        game_model(side, after, first, depth, len(path), path),
        levels=-len(path),
        root_worth=True,
        what=what,
    )


# The frame rule of every update (issue 13) ----------------------------------------------------------
#
# After an update the tree it was given either is as it was or equals the result
# (E01), and every tree built before keeps its grid, level and links. A tree given to
# an update is held only to its own grid and level: a tree that keeps another may link
# it back (E25).


def children_from(impl, firsts: list, most: list[int]) -> list[list]:
    """For each first child (a getChild known not to be the empty tree): its node's children,
    by getSibling until the empty tree, at most one more than ``most`` (enough to know there
    are too many). A step is taken for every node at once (``impl.batch``)."""
    tg = impl.game_tree
    found: list[list] = [[] for _ in firsts]
    walking = list(zip(found, firsts, most, strict=True))
    while walking:
        for children, child, _ in walking:
            children.append(child)
        walking = [
            (children, tg.getSibling(child), limit) for children, child, limit in walking if len(children) <= limit
        ]
        ends = impl.batch(lambda: [tg.isEmpty(child) for _, child, _ in walking])  # noqa: B023 - run before the loop moves on
        walking = [step for step, end in zip(walking, ends, strict=True) if not end]
    return found


def nodes_of(impl, tree, most: int = 400) -> list:
    """A tree's nodes with their depths, depth first through getChild, then getSibling (at most ``most``).

    Whether a node is empty is asked of a whole layer of the getChild/getSibling links at
    once (``impl.batch``), down to where ``most`` nodes have been seen; the order is
    then worked out from the links. A node beyond those layers (only in a tree of more
    than ``most`` nodes, or a looping one) is asked on its own when the order reaches it.
    """
    ops = impl.game_tree
    links: dict = {}  # id(node) -> (node, None if empty else (sibling, child)); the node keeps its id taken

    def explore(frontier: list) -> list:
        empties = impl.batch(lambda: [ops.isEmpty(node) for node in frontier])
        below = []
        for node, empty in zip(frontier, empties, strict=True):
            pair = None if empty else (ops.getSibling(node), ops.getChild(node))
            links[id(node)] = (node, pair)
            below += pair or ()
        return below

    frontier, seen = [tree], 0
    while frontier and seen < most:
        frontier = explore([node for node in frontier if id(node) not in links])
        seen += len(frontier) // 2
    found, stack = [], [(tree, 0)]
    while stack and len(found) < most:
        node, depth = stack.pop()
        if id(node) not in links:
            explore([node])
        pair = links[id(node)][1]
        if pair is None:
            continue
        found.append((node, depth))
        stack += [(pair[0], depth), (pair[1], depth + 1)]
    return found


def levels_of(impl, tree, most: int = 400) -> list:
    """The levels of a tree's nodes, depth first through getChild, then getSibling (at most ``most``)."""
    return [impl.game_tree.getLevel(node) for node, _ in nodes_of(impl, tree, most)]


def same_levels(impl, first: list, second: list) -> bool:
    return len(first) == len(second) and all(
        impl.batch(lambda: [impl.level_number.equals(a, b) for a, b in zip(first, second, strict=True)])
    )


def holds_node(make: TreeMaker, tree, grid, level: int) -> bool:
    """Whether ``tree`` is a node holding a grid equal to ``grid`` at ``level``."""
    ops = make.impl.game_tree
    return (
        not ops.isEmpty(tree)
        and make.impl.grid.equals(ops.getGrid(tree), grid)
        and make.impl.level_number.equals(ops.getLevel(tree), make.level_probe(level))
    )


def holds_tree(make: TreeMaker, tree, model: dict, grids: list) -> bool:
    """Whether ``tree`` has the model ``{"node": (grid, level), "child"/"sibling"/"parent": None or (grid, level)}``."""
    ops = make.impl.game_tree
    if not holds_node(make, tree, grids[model["node"][0]], model["node"][1]):
        return False
    for link in ("child", "sibling", "parent"):
        got = getattr(ops, f"get{link.capitalize()}")(tree)
        if model[link] is None:
            if not ops.isEmpty(got):
                return False
        elif not holds_node(make, got, grids[model[link][0]], model[link][1]):
            return False
    return True


def check_set_frame(impl, component: str, pool: list, start: int, value: tuple) -> None:
    """``set<component>`` of a one-node tree: its result, its argument, the value given and a tree built before."""
    make, ops = TreeMaker(impl), impl.game_tree
    grids = [make.grid(4, marks) for marks in pool]  # only ever compared
    bystander = ops.newGameTreeType(make.grid(4, pool[2]), make.level(5))
    tree = ops.newGameTreeType(make.grid(4, pool[0]), make.level(start))
    before = {"node": (0, start), "child": None, "sibling": None, "parent": None}
    after = dict(before)
    if component == "grid":
        given, after["node"] = make.grid(4, pool[value[0]]), (value[0], start)
    elif component == "level":
        given, after["node"] = make.level(value[1]), (0, value[1])
    else:
        given, after[component] = ops.newGameTreeType(make.grid(4, pool[value[0]]), make.level(value[1])), value
    call = f"set{component.capitalize()}(the one-node tree of grid 1 at level {start}, {value})"
    where = f"{call} (grids: {', '.join(picture(4, m) for m in pool)})"
    result = getattr(ops, f"set{component.capitalize()}")(tree, given)
    expect(holds_tree(make, result, after, grids), f"the result of {where}")
    expect(
        holds_tree(make, tree, before, grids) or holds_tree(make, tree, after, grids),
        f"after {where}, the tree it was given is either unchanged or equal to the result (E01): the frame rule",
    )
    if component in ("child", "sibling", "parent"):
        expect(
            holds_node(make, given, grids[value[0]], value[1]),
            f"after {where}, the tree given keeps its grid and level (the frame rule)",
        )
    expect(
        holds_tree(make, bystander, {"node": (2, 5), "child": None, "sibling": None, "parent": None}, grids),
        f"after {where}, a tree built before it (grid 3 at level 5) is unchanged (the frame rule)",
    )


FRAME_POOL = st.lists(
    positions(empties=st.integers(4, 12), finished_ok=True).map(lambda model: model[1]),
    min_size=3,
    max_size=3,
    unique_by=lambda m: tuple(sorted(m.items())),
)
FRAME_VALUES = st.tuples(st.integers(1, 2), st.integers(0, 6))


@covers("GameTreeType.setGrid")
@few(8)
@given(pool=FRAME_POOL, start=st.integers(0, 6), value=FRAME_VALUES)
def test_set_grid_changes_its_argument_at_most(impl, pool, start, value):
    check_set_frame(impl, "grid", pool, start, value)


@covers("GameTreeType.setLevel")
@few(8)
@given(pool=FRAME_POOL, start=st.integers(0, 6), value=FRAME_VALUES)
def test_set_level_changes_its_argument_at_most(impl, pool, start, value):
    check_set_frame(impl, "level", pool, start, value)


@covers("GameTreeType.setChild")
@few(8)
@given(pool=FRAME_POOL, start=st.integers(0, 6), value=FRAME_VALUES)
def test_set_child_changes_its_argument_at_most(impl, pool, start, value):
    check_set_frame(impl, "child", pool, start, value)


@covers("GameTreeType.setSibling")
@few(8)
@given(pool=FRAME_POOL, start=st.integers(0, 6), value=FRAME_VALUES)
def test_set_sibling_changes_its_argument_at_most(impl, pool, start, value):
    check_set_frame(impl, "sibling", pool, start, value)


@covers("GameTreeType.setParent")
@few(8)
@given(pool=FRAME_POOL, start=st.integers(0, 6), value=FRAME_VALUES)
def test_set_parent_changes_its_argument_at_most(impl, pool, start, value):
    check_set_frame(impl, "parent", pool, start, value)


def check_growth_frame(impl, operation: str, model, first: str, depth: int) -> None:
    """buildGame or generateLevel of a one-node tree: the argument is unchanged or equal to the result; a tree built
    before is not touched."""
    side, marks = model
    make, ops = TreeMaker(impl), impl.game_tree
    bystander = ops.newGameTreeType(make.grid(side, marks), make.level(0))
    tree = ops.newGameTreeType(make.grid(side, marks), make.level(0))
    players = (make.player(first), make.player(OTHER[first]))
    if operation == "buildGame":
        result = ops.buildGame(tree, make.grid(side, marks), *players, make.level(depth))
        call = (
            f"buildGame(the one-node tree of {picture(side, marks)}, that grid, {first}, {OTHER[first]}, level {depth})"
        )
    else:
        result = ops.generateLevel(tree, *players)
        call = f"generateLevel(the one-node tree of {picture(side, marks)}, {first}, {OTHER[first]})"
    grown = levels_of(impl, result)
    unchanged = holds_node(make, tree, make.grid(side, marks), 0) and ops.isEmpty(ops.getChild(tree))
    expect(
        unchanged
        or (holds_node(make, tree, make.grid(side, marks), 0) and same_levels(impl, levels_of(impl, tree), grown)),
        f"after {call}, the tree it was given is either still one node or equal to the result, {len(grown)} nodes "
        "(E01): the frame rule",
    )
    expect(
        holds_node(make, bystander, make.grid(side, marks), 0) and ops.isEmpty(ops.getChild(bystander)),
        f"after {call}, another one-node tree of the same grid, built before it, is still one node (the frame rule)",
    )
    for player, colour in zip(players, (first, OTHER[first]), strict=True):
        expect_equal(
            make.read(impl.player.getSymbol(player)),
            colour,
            f"after {call}, the player {colour} given to it is still {colour} (the frame rule)",
        )


@covers("GameTreeType.buildGame")
@few(8)
@given(model=positions(empties=st.integers(2, 5)), first=colours, depth=st.integers(1, 2))
def test_build_game_changes_its_argument_at_most(impl, model, first, depth):
    check_growth_frame(impl, "buildGame", model, first, depth)


@covers("GameTreeType.generateLevel")
@few(8)
@given(model=positions(empties=st.integers(1, 8)), first=colours)
def test_generate_level_changes_its_argument_at_most(impl, model, first):
    check_growth_frame(impl, "generateLevel", model, first, 1)


@covers("GameTreeType.adjustLevel")
@few(8)
@given(node=hand_trees(levels=st.integers(1, 3)), other=hand_trees(levels=st.integers(1, 3)))
def test_adjust_level_changes_its_argument_at_most(impl, node, other):
    make = TreeMaker(impl)
    bystander = build_hand(make, other)
    before = levels_of(impl, bystander)
    tree = build_hand(make, node)
    argument = levels_of(impl, tree)
    result = impl.game_tree.adjustLevel(tree)
    call = f"adjustLevel(the tree {node.describe()} with its root at level {node.level})"
    now = levels_of(impl, tree)
    expect(
        same_levels(impl, now, argument) or same_levels(impl, now, levels_of(impl, result)),
        f"after {call}, the tree it was given keeps its levels or has the result's (E01): the frame rule",
    )
    expect(
        same_levels(impl, levels_of(impl, bystander), before),
        f"after {call}, another tree, {other.describe()}, built before it, keeps its levels (the frame rule)",
    )
