# numba's code generation helpers carry no annotations.
# mypy: disable-error-code="no-untyped-call"
"""A cache hint for the compiled games' kernels: ``prefetch(array, index)`` asks the processor to
start loading ``array[index]`` into its caches, so that a read a little later finds it there.
Connect Four's solver asks for each child's table slot while it orders a node's moves; the chess
engine asks for a child's table bucket as soon as the move is made. A hint changes no result.

Compiled, it is LLVM's ``llvm.prefetch`` (a read, kept in every cache level, of data; it never
faults), declared through llvmlite so that it builds with the typed pointers of older LLVMs and
the opaque ones of newer; with numba's compiler off (``NUMBA_DISABLE_JIT=1``), a function that
does nothing. It is inlined into the kernels that call it, so numba's cache of those kernels
holds it: a change here reaches a game's cached kernels only once its own sources change.
"""

from __future__ import annotations

from typing import Any

import numba

if getattr(numba.config, "DISABLE_JIT", False):

    def prefetch(array: Any, index: Any) -> None:
        """Hint that ``array[index]`` will be read soon (a no-op without numba's compiler)."""

else:
    from llvmlite import ir  # type: ignore[import-untyped, unused-ignore]
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic  # type: ignore[misc, unused-ignore]
    def prefetch(typingctx: Any, array: Any, index: Any) -> Any:
        """Hint that ``array[index]`` will be read soon (LLVM's prefetch, no fault)."""
        if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array_type = signature.args[0]
            ary = context.make_array(array_type)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(
                context, builder, array_type, ary, [args[1]], wraparound=False
            )
            i8p = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
            # a read (0), high temporal locality (3), of data (1)
            hint = [ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)]
            builder.call(fn, [builder.bitcast(ptr, i8p), *hint])
            return context.get_dummy_value()

        return types.void(array, index), codegen
