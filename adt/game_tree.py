"""GameTreeType: a tree of grids that looks ahead from the current grid.

Representation. A tree is a handle on its root node, or on no node at all: the empty
tree is ``GameTree(None)``, a real value whose isEmpty is True, so getChild of a leaf,
getParent of a root and getSibling of a last child all return an empty tree. Nodes link
to each other directly: a node's ``child`` is its first child, each child's ``sibling``
the next one, and every child's ``parent`` the node above it. The operations that
return a subtree wrap its node in a new handle.

Size. Looking 4 moves ahead on a 4 x 4 grid makes about 47,000 nodes, 5 moves about
571,000, so a node is kept small: a slotted class holding the grid itself, the level as
a plain number (getLevel makes a LevelNumberType from it, setLevel reads one) and its
three links.

Speed. The computer must answer within 2 seconds at every size and look-ahead the game
offers, and a tree can hold over half a million grids, so three things are done faster
than the documented calls would do them, with the same results:

- buildGame, chooseBest, findBest and adjustLevel walk the nodes directly rather than
  through the handle-making operations;
- generateLevel puts each child's mark on its copy of the grid by setting the grid's
  bit for the square instead of calling GridType.occupySquare, which builds a
  location, a square and a symbol on every call;
- a child's worth is not evaluateGrid of the child but its parent's evaluation plus
  the change its one new mark makes to the lines through that square (GridType's
  ``Lines.gains``, worked out once for all the children of a node), and whether the
  child's game is over comes from the same pass. ``tests/kit/test_reference_evaluation.py``
  checks that every worth in built trees is exactly evaluateGrid's;
- buildGame pauses Python's cycle collector while the tree grows.

Everything else follows the documented calls.

Rulings: the first player moves at even levels and the second at odd ones, and every
worth is taken from the first player's point of view (erratum E29); chooseBest is
minimax (E30), recording each inner node's value as its worth; findBest and findMove
return a detached copy of the chosen subtree, leaving the searched tree's shape as it
was (E31); adjustLevel renumbers from 0 (E37).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import attrs

from spec import PreconditionError, require

from . import grid as grid_adt
from . import level_number as level_number_adt
from . import player as player_adt
from . import symbol as symbol_adt
from . import worth as worth_adt
from .colour import RED
from .grid import Grid
from .level_number import LevelNumber
from .player import Player
from .worth import Worth


@attrs.define(eq=False, repr=False, weakref_slot=False)
class Node:
    """One node of a game tree: a grid, its level and its links to the nodes around it."""

    grid: Grid
    level: int
    parent: Node | None = None
    child: Node | None = None
    sibling: Node | None = None

    def __repr__(self) -> str:
        # The default repr would follow the links through the whole tree.
        return f"Node(level={self.level}, grid={self.grid!r})"


@attrs.define(eq=False, repr=False)
class GameTree:
    """A game-tree value: a handle on the root node, or on none for the empty tree."""

    node: Node | None = None

    def __repr__(self) -> str:
        return "GameTree(empty)" if self.node is None else f"GameTree({self.node!r})"


# Construction ---------------------------------------------------------------------


def newGameTreeType(grid: Grid | None = None, level: LevelNumber | None = None, parent: GameTree | None = None) -> GameTree:
    """Make the empty tree, or a one-node tree holding the grid at the level (and under the parent)."""
    tree = GameTree()
    if grid is None:
        require(level is None and parent is None, "GameTreeType.newGameTreeType", "a level or a parent needs a grid too")
        return tree
    require(level is not None, "GameTreeType.newGameTreeType", "a grid needs a level too")
    tree = setGrid(tree, grid)
    tree = setLevel(tree, level)
    if parent is not None:
        tree = setParent(tree, parent)
    return tree


def isEmpty(tree: GameTree) -> bool:
    """Whether the tree is the empty tree."""
    return tree.node is None


# Components of the root node ------------------------------------------------------


def setGrid(tree: GameTree, grid: Grid) -> GameTree:
    """Make the grid the root's grid; the empty tree becomes a one-node tree at level 0 (erratum E27)."""
    if isEmpty(tree):
        tree.node = Node(grid, 0)
    else:
        tree.node.grid = grid
    return tree


def getGrid(tree: GameTree) -> Grid:
    """Return the root's grid."""
    _require_node(tree, "GameTreeType.getGrid")
    return tree.node.grid


def setParent(tree: GameTree, parent: GameTree) -> GameTree:
    """Make the given tree the root's parent and return the tree."""
    _require_node(tree, "GameTreeType.setParent")
    tree.node.parent = parent.node
    return tree


def getParent(tree: GameTree) -> GameTree:
    """Return the root's parent: the empty tree for a root (erratum E26)."""
    _require_node(tree, "GameTreeType.getParent")
    return GameTree(tree.node.parent)


def setChild(tree: GameTree, child: GameTree) -> GameTree:
    """Make the given tree the root's first child and return the tree."""
    _require_node(tree, "GameTreeType.setChild")
    tree.node.child = child.node
    return tree


def getChild(tree: GameTree) -> GameTree:
    """Return the root's first child: the empty tree when it has none (erratum E26)."""
    _require_node(tree, "GameTreeType.getChild")
    return GameTree(tree.node.child)


def setSibling(tree: GameTree, sibling: GameTree) -> GameTree:
    """Make the given tree the root's next sibling and return the tree."""
    _require_node(tree, "GameTreeType.setSibling")
    tree.node.sibling = sibling.node
    return tree


def getSibling(tree: GameTree) -> GameTree:
    """Return the root's next sibling: the empty tree when it has none (erratum E26)."""
    _require_node(tree, "GameTreeType.getSibling")
    return GameTree(tree.node.sibling)


def setLevel(tree: GameTree, level: LevelNumber) -> GameTree:
    """Set the root's level and return the tree."""
    _require_node(tree, "GameTreeType.setLevel")
    tree.node.level = level.number
    return tree


def getLevel(tree: GameTree) -> LevelNumber:
    """Return the root's level."""
    _require_node(tree, "GameTreeType.getLevel")
    return LevelNumber(tree.node.level)


# Looking ahead --------------------------------------------------------------------


def buildGame(tree: GameTree, grid: Grid, first: Player, second: Player, depth: LevelNumber) -> GameTree:
    """Grow the tree down to the given level, the first player moving at even levels (errata E28, E29).

    An empty tree first gets a root at level 0 holding the grid. Every node above the
    given level whose game is not over gets one child per empty square; nodes at that
    level get none. A tree that already has levels is rebuilt below its root, which
    erratum E28 allows: the result then never depends on what the tree held before
    (chooseBest may have replaced its worths with backed-up values), and the levels
    kept would be the smallest part of the work anyway.
    """
    require(
        isEmpty(tree) or (grid_adt.equals(getGrid(tree), grid) and tree.node.level == 0),
        "GameTreeType.buildGame",
        "the tree must be empty, or have a root at level 0 holding the given grid",
    )
    _require_players(first, second, "GameTreeType.buildGame")
    if isEmpty(tree):
        tree = setGrid(tree, grid)
    else:
        tree = setChild(tree, newGameTreeType())
    if depth.number > 0 and not grid_adt.gameOver(grid):
        with _collector_paused():
            _grow(tree.node, first, second, depth.number, grid_adt.evaluateGrid(grid, first).number)
    return tree


def generateLevel(tree: GameTree, first: Player, second: Player) -> GameTree:
    """Give the root one child per empty square, marked by the player to move (erratum E29).

    The mover is the first player when the root's level is even, the second when it is
    odd. Each child is a copy of the root's grid with the mover's mark on one more
    square, its worth evaluateGrid from the first player's point of view, one level
    deeper than the root. A grid whose game is over gets no children.
    """
    _require_node(tree, "GameTreeType.generateLevel")
    require(isEmpty(getChild(tree)), "GameTreeType.generateLevel", "the root must not have children yet")
    _require_players(first, second, "GameTreeType.generateLevel")
    grid = getGrid(tree)
    if not grid_adt.gameOver(grid):
        _generate(tree.node, first, second, grid_adt.evaluateGrid(grid, first).number)
    return tree


def chooseBest(tree: GameTree) -> Worth:
    """Return the tree's minimax value for its first player (erratum E30).

    A leaf is worth its grid's worth; a node at an even level (the first player to
    move) the greatest value among its children, a node at an odd level the least.
    Each inner node's value is recorded as its grid's worth on the way: the tree keeps
    its shape, but its inner worths become minimax values.
    """
    _require_node(tree, "GameTreeType.chooseBest")
    require(not isEmpty(getChild(tree)), "GameTreeType.chooseBest", "the root must have at least one child")
    return Worth(_minimax(tree.node))


def findBest(tree: GameTree, worth: Worth) -> GameTree:
    """Return the first of the root's children whose minimax value is the worth, as a tree of its own.

    Any such child would do when several are (erratum E44); taking the first is this
    implementation's choice.

    The result is a copy of that child's subtree with no parent and no sibling (erratum
    E31); the searched tree keeps its shape. Each child's value is worked out afresh
    with the minimax of chooseBest, which records it as the worth of every inner node
    below the root it looks at, so findBest does not depend on chooseBest having run.
    """
    _require_node(tree, "GameTreeType.findBest")
    child = tree.node.child
    while child is not None:
        _minimax(child)
        if worth_adt.equals(grid_adt.getWorth(child.grid), worth):
            return _detached(child)
        child = child.sibling
    raise PreconditionError("GameTreeType.findBest", f"no child of the root has the minimax value {worth.number}")


def findMove(tree: GameTree, grid: Grid) -> GameTree:
    """Return the root's child whose grid equals the given one (erratum E22), as a tree of its own.

    The result is a copy of that child's subtree with no parent and no sibling (erratum
    E31); the searched tree is left as it was.
    """
    _require_node(tree, "GameTreeType.findMove")
    child = tree.node.child
    while child is not None:
        if grid_adt.equals(child.grid, grid):
            return _detached(child)
        child = child.sibling
    raise PreconditionError("GameTreeType.findMove", "no child of the root holds the given grid")


def adjustLevel(tree: GameTree) -> GameTree:
    """Renumber the levels: the root 0, its children 1, and so on down (erratum E37)."""
    if not isEmpty(tree):
        tree = setLevel(tree, level_number_adt.newLevelNumberType())
        _renumber(tree.node.child, 1)
    return tree


# Private helpers ------------------------------------------------------------------


def _require_node(tree: GameTree, operation: str) -> None:
    require(not isEmpty(tree), operation, "the tree must not be empty")


def _require_players(first: Player, second: Player, operation: str) -> None:
    one, other = player_adt.getSymbol(first), player_adt.getSymbol(second)
    require(
        not symbol_adt.isEmpty(one) and not symbol_adt.isEmpty(other) and not symbol_adt.equals(one, other),
        operation,
        "the two players must have different, non-empty symbols",
    )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a tree grows.

    The collector runs every few hundred new objects and now and then walks every object
    alive, so growing a tree of half a million nodes would have it walk the growing tree
    again and again to find nothing: half the time of the build. It runs as usual after.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _grow(node: Node, first: Player, second: Player, depth: int, score: int) -> None:
    """Give the node, and each node below it, its children until the given level.

    The node is above that level, its game is not over and ``score`` is its evaluation
    for the first player.
    """
    going_on = _generate(node, first, second, score)
    if node.level + 1 < depth:
        for child in going_on:
            _grow(child, first, second, depth, child.grid.worth)


def _generate(node: Node, first: Player, second: Player, score: int) -> list[Node]:
    """generateLevel on a node whose game is not over and whose evaluation is ``score``.

    The children, one per empty square row by row, become the node's sibling list; the
    ones whose game goes on are returned (their worth is their evaluation).
    """
    grid = node.grid
    mover = first if node.level % 2 == 0 else second
    plays_red = symbol_adt.getColour(player_adt.getSymbol(mover)).name == RED
    first_is_red = symbol_adt.getColour(player_adt.getSymbol(first)).name == RED
    mine, theirs = (grid.red, grid.blue) if first_is_red else (grid.blue, grid.red)
    # evaluateGrid of each child, from this grid's: see the module's note on speed.
    every = grid_adt.lines(grid.side)
    gains, winning = every.gains(mine, theirs, i_move=plays_red == first_is_red)
    occupied = grid.red | grid.blue
    empty_left = grid.side * grid.side - occupied.bit_count() - 1
    # A won child also scores how early it was won (GridType.evaluateGrid).
    win_bonus = empty_left * every.speed * (1 if plays_red == first_is_red else -1)
    side, red, blue, level = grid.side, grid.red, grid.blue, node.level + 1
    previous, going_on = None, []
    for square in range(side * side):
        bit = 1 << square
        if occupied & bit:
            continue
        won = winning & bit
        worth = score + gains[square] + (win_bonus if won else 0)
        # GridType.occupySquare, for the square's bit: see the module's note on speed.
        if plays_red:
            child_grid = Grid(side, red | bit, blue, worth)
        else:
            child_grid = Grid(side, red, blue | bit, worth)
        child = Node(child_grid, level, node)
        if previous is None:
            node.child = child
        else:
            previous.sibling = child
        previous = child
        if not won and empty_left:
            going_on.append(child)
    return going_on


def _minimax(node: Node) -> int:
    """The node's minimax value, recorded as its grid's worth when it has children."""
    child = node.child
    if child is None:
        return node.grid.worth
    maximising = node.level % 2 == 0
    best = _minimax(child)
    child = child.sibling
    while child is not None:
        value = _minimax(child)
        if (value > best) if maximising else (value < best):
            best = value
        child = child.sibling
    node.grid.worth = best
    return best


def _detached(node: Node) -> GameTree:
    """A tree of its own for the node and everything below it, with no parent and no sibling.

    The nodes are copied (the grids are shared), so the given tree is left as it was:
    findBest and findMove only look at it.
    """
    return GameTree(_copy(node, None))


def _copy(node: Node, parent: Node | None) -> Node:
    """A copy of the node and its descendants under the given parent, without the node's siblings."""
    copy = Node(node.grid, node.level, parent)
    previous = None
    child = node.child
    while child is not None:
        child_copy = _copy(child, copy)
        if previous is None:
            copy.child = child_copy
        else:
            previous.sibling = child_copy
        previous = child_copy
        child = child.sibling
    return copy


def _renumber(node: Node | None, level: int) -> None:
    """Give the node, its siblings and everything below them their depth as level."""
    while node is not None:
        node.level = level
        _renumber(node.child, level + 1)
        node = node.sibling
