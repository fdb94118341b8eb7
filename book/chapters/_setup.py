#ko| #@title 준비 셀 (먼저 실행하세요): 그림 설정, 한글 글꼴, 오류 셀 도우미
#en| #@title Set-up (run it first): figures, a Hangul font, a helper for deliberate errors
#ko: Colab에서는 한글 글꼴 패키지와, 장에 따라 이 책이 쓰는 버전의 라이브러리를
#ko: 설치하고, 일부러 오류를 내는 셀에 쓰는 도우미를 정의합니다.
#en: In Colab, install the Hangul font package and, in some chapters, the library
#en: versions this book uses, and define expect_error for the cells that fail on purpose.
import sys

from IPython import get_ipython

#ko: IPython의 !와 % 대신 같은 일을 하는 호출로 씁니다. 이 셀처럼 긴 셀은 그런 줄 하나마다
#ko: IPython이 셀 전체를 다시 읽어서, 실행이 0.2초쯤 늦어집니다
#en: the calls that IPython's ! and % lines stand for: for each such line IPython reads
#en: a cell this long whole once more, which made it start about 0.2 s later
if "google.colab" in sys.modules:
    import importlib.metadata

    def _installed(pin):
        name, wanted = pin.split("==")
        try:
            return importlib.metadata.version(name) == wanted
        except importlib.metadata.PackageNotFoundError:
            return False

    #ko: 패키지가 이미 그 버전으로 있으면(런타임을 다시 시작한 뒤처럼) pip을 부르지
    #ko: 않습니다. 설치할 것이 없어도 pip은 1초 넘게 걸립니다
    #en: pip only when a package is missing or at another version (not after a restart):
    #en: pip takes over a second even when there is nothing to install
    _pins = "COLAB_PACKAGES"
    if not all(_installed(pin) for pin in _pins.split()):
        get_ipython().system("pip install --quiet COLAB_PACKAGES")

import koreanize_matplotlib  # noqa: E402, F401
import matplotlib.pyplot as plt  # noqa: E402

#ko: 그림은 SVG로: 휴대폰에서도 또렷하고, 글자는 글자로 남아 작게 전송됩니다.
#ko: 같은 그림이면 같은 SVG가 나옵니다
#en: figures as SVG: sharp on a phone, letters kept as text (small files);
#en: the same figure always gives the same SVG
get_ipython().run_line_magic("config", 'InlineBackend.figure_formats = ["svg"]')
figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
get_ipython().run_line_magic("config", "InlineBackend.print_figure_kwargs = figure_kwargs")
plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "attention-step-by-step",
                     "font.family": ["DejaVu Sans", "NanumGothic", "sans-serif"],
                     "font.sans-serif": ["DejaVu Sans", "NanumGothic"],
                     "axes.titlesize": 11, "figure.titlesize": 11})


class expect_error:
    #ko| """`with expect_error(오류 종류):` 블록은 그 오류를 내야 합니다.
    #ko| 오류는 평소처럼 보여 주고 다음 셀로 넘어갑니다."""
    #en| """`with expect_error(SomeError):` the block must raise that error.
    #en| It is shown as usual, and Run all goes on."""

    def __init__(self, kind):
        self.kind = kind

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is None:
            #ko: 오류가 나야 할 셀이 오류 없이 끝났다면, 설명이 더는 맞지 않으므로 멈춥니다
            #en: a cell that should fail but did not: the text around it is wrong now, stop
            expected = self.kind.__name__
            raise AssertionError(
                f"expected {expected}, but the cell ran without an error")
        if not issubclass(kind, self.kind):
            return False
        get_ipython().showtraceback((kind, error, traceback), tb_offset=0)
        return True
