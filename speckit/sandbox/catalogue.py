"""What the operation server says the implementation provides: its modules, which operations it has,
their signatures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import MissingOperation, OperationFailed, Presence
from .pipeline import ValueRead, raise_failure
from .process import ProtocolViolation, ServerDied, bounded_text
from .protocol import Command, ErrorKind
from .reads import RemoteModule

if TYPE_CHECKING:
    from .client import SandboxedImplementation
    from .operation import SandboxedOperation

PRESENCES = frozenset(p.value for p in Presence)
SuiteFailureTypes = (OperationFailed, MissingOperation, ServerDied)


class RemoteCatalogue:
    """The implementation's modules, operations and signatures, as the server found them (asked once each)."""

    def __init__(self, owner: SandboxedImplementation):
        self.owner = owner
        self.modules: dict[str, str] = {}
        """Modules asked for so far: "" if the server imported it, else why not."""
        self.presence: dict[str, str] | None = None
        """Whether each operation is present, missing or not implemented, by qualified name."""
        self.resolved: dict[tuple[str, str], tuple[bool, Any]] = {}
        """Each operation's (True, signature) or (False, why it cannot be called), by (module, name)."""

    def module(self, module_name: str, operation: str = "") -> RemoteModule:
        """A read-only view of the implementation's module, or :class:`MissingOperation` saying why not
        (charged to ``operation``, the operation that needed the module, if given)."""
        problem = self.modules.get(module_name)
        if problem is None:
            try:
                self.owner.reads.remote(
                    ValueRead(
                        [Command.MODULE, module_name, None, 0],
                        f"importing module {module_name}",
                        f"module {module_name}",
                        False,
                    )
                )
            except MissingOperation as e:
                self.modules[module_name] = str(e)
                raise
            problem = self.modules[module_name] = ""
        if problem:
            raise_failure(MissingOperation(problem, operation))
        return RemoteModule(self.owner, module_name)

    def state(self, qualname: str) -> Presence:
        """Whether the implementation has the operation, as the server reads its source."""
        if self.presence is None or qualname not in self.presence:
            names = [op.qualname for op in self.owner.spec.operations(extensions=True)]
            if qualname not in names:
                names.append(qualname)
            try:
                answer = self.owner.exchange([[Command.PRESENCE, names]], [self.owner.config.import_seconds * 4])
                values = answer.get("result")
                if not (isinstance(values, list) and len(values) == len(names) and all(v in PRESENCES for v in values)):
                    raise ProtocolViolation("presence answer malformed")
                self.presence = dict(zip(names, values, strict=True))
            except (*SuiteFailureTypes, ProtocolViolation):
                return Presence.MISSING
        return Presence(self.presence.get(qualname, Presence.MISSING))

    def resolve(self, op: SandboxedOperation) -> Any:
        """The operation's signature (or None); :class:`MissingOperation` when it cannot be called."""
        key = op.key
        known = self.resolved.get(key)
        if known is None:
            try:
                answer = self.owner.exchange(
                    [[Command.RESOLVE, op.module_name, op.operation.name]], [self.owner.config.import_seconds]
                )
            except ServerDied as e:
                known = (
                    False,
                    f"module {op.module_name} could not be imported: importing it ended the process ({e.reason})",
                )
            except OperationFailed as e:
                known = (False, str(e))
            else:
                result = answer.get("result")
                if not isinstance(result, dict):
                    raise ProtocolViolation("resolve answer malformed")
                if ErrorKind.MISSING in result:
                    known = (False, bounded_text(result[ErrorKind.MISSING]))
                else:
                    known = (True, _signature(result.get("signature")))
            self.resolved[key] = known
        ok, detail = known
        if not ok:
            # Charged to the operation, as in process: a test of another type stopped by it names it,
            # and grading can tell that type lost its points to this one (and grade it as a hybrid).
            raise_failure(MissingOperation(detail, op.qualname))
        op.fast = op.pipelinable or op.answers_by_value  # found once, it is found for every server
        return detail


def _signature(data: Any):
    import inspect

    if data is None:
        return None
    try:
        parameters = []
        for name, kind, has_default in data:
            if not isinstance(name, str) or not isinstance(kind, int) or not isinstance(has_default, bool):
                return None
            default = None if has_default else inspect.Parameter.empty
            parameters.append(inspect.Parameter(name, inspect._ParameterKind(kind), default=default))
        return inspect.Signature(parameters)
    except (TypeError, ValueError):
        return None
