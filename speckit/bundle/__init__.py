"""What an instructor hands out: a student bundle, a Gradescope autograder, a GitHub Classroom starter.

Each builder writes files from the kit's own checkout and a specification's declared
parts (:mod:`speckit.registry`); none of them names one specification.

* :mod:`.student` — an installable package and a docs site with the specification, the
  supplied modules and the visible tests, without the solution or the hidden tests.
* :mod:`.gradescope` — an autograder zip in Gradescope's layout, and :mod:`.autograder`,
  what runs inside it.
* :mod:`.classroom` — a starter repository with a GitHub Actions autograding workflow.
"""
