"""Builds the compiled cores (word graph and move generator) at `pip install`."""
from setuptools import Extension, setup

COMMON = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function"]

setup(
    ext_modules=[
        Extension(
            "lexicon._graph",
            sources=["lexicon/_graph.c"],
            depends=["lexicon/graph_format.h", "lexicon/anagram_index.h"],
            include_dirs=["lexicon"],
            extra_compile_args=[*COMMON, "-pthread"],
            extra_link_args=["-pthread"],
        ),
        Extension(
            "lexicon._dawgdic",
            sources=["lexicon/_dawgdic.c"],
            extra_compile_args=COMMON,
        ),
        Extension(
            "scoring._solver",
            sources=["scoring/_solver.c"],
            depends=["lexicon/graph_format.h", "lexicon/anagram_index.h"],
            include_dirs=["lexicon"],
            extra_compile_args=COMMON,
        ),
    ],
)
