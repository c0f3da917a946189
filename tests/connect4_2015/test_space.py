"""Space and GameState: the enumerations, their members told apart with ==."""

from speckit.testing import covers, expect

from .adapter import Build


@covers("Grid.getSpaceType", "Grid.setSpace")
def test_space_has_three_distinct_members_that_a_grid_stores(impl):
    build = Build(impl)
    members = {name: build.space(name) for name in ("Red", "Blue", "Empty")}
    for a in members:
        for b in members:
            expect(
                (members[a] == members[b]) == (a == b),
                f"Space.{a} == Space.{b} is {a == b}",
                expected=a == b,
                actual=members[a] == members[b],
            )
    grid = impl.grid.Grid()
    for x, name in enumerate(members):
        impl.grid.setSpace(grid, x, 0, members[name])
        expect(
            impl.grid.getSpaceType(grid, x, 0) == members[name],
            f"a grid gives back Space.{name}",
            expected=members[name],
            actual=impl.grid.getSpaceType(grid, x, 0),
        )


@covers("GameLogic.isWin")
def test_game_state_has_three_distinct_members(impl):
    build = Build(impl)
    members = {name: build.state(name) for name in ("Win", "Ongoing", "Draw")}
    for a in members:
        for b in members:
            expect(
                (members[a] == members[b]) == (a == b),
                f"GameState.{a} == GameState.{b} is {a == b}",
                expected=a == b,
                actual=members[a] == members[b],
            )
