# Attention, Step by Step: the two commands a reader needs are `make book` and `make test`.
# Both set up everything first (a .venv with the pinned requirements, and the pinned npm assets).
#
#   make book       build the site into _build/html (both languages)
#   make test       lint, build the site, then every check (nbval, re-execution, Colab, parity, site) while the PDF prints
#   make execute    re-run chapter notebooks from their sources (CHAPTER=01 for one chapter)
#   make student    write the student notebooks (solutions removed) into student/<lang>/
#   make serve      preview the built site on http://127.0.0.1:$(PORT)/
#   make bench      time and memory of the book's attention vs PyTorch's, and of every chapter notebook
#   make audit      Lighthouse scores of the built site (landing page and every chapter page; PAGES=ko/07_cost.html)
#   make lint       ruff over the tools, the tests and the notebooks' code
#   make colab-venv .venv-colab with Colab's versions (requirements-colab.txt), for the Colab-faithful test
#   make pdf        the PDF edition, both languages, and one handout per chapter, into _build/pdf/ and the site
#   make grade      grade students' notebooks: make grade CHAPTER=03 SUBMISSIONS=folder [LANG=ko] [OUT=dir] [POINTS=..]
#   make lab        open the notebooks in JupyterLab on the book's environment (installs requirements-lab.txt)
#   make clean      remove _build (keeps .venv and node_modules)

SHELL := /bin/bash
# (see --no-compile below)
unexport PYTHONDONTWRITEBYTECODE
.SHELLFLAGS := -eo pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
COLAB_VENV := .venv-colab
COLAB_STAMP := $(COLAB_VENV)/.installed
NPM_STAMP := node_modules/.package-lock.json
LIGHTHOUSE := node_modules/.bin/lighthouse
PORT ?= 8000
CHAPTER ?=

.PHONY: help book test site execute student serve bench audit built-site lint clean setup colab-venv lab grade pdf

help:
	@sed -n '1,17p' Makefile | sed 's/^# \{0,1\}//'

setup: $(VENV_STAMP) $(NPM_STAMP)

$(VENV_STAMP): requirements.txt requirements-pip.txt
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found; install Python 3.11 or run 'make PYTHON=/path/to/python3.11 ...'"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || { echo "error: $(PYTHON) is not Python 3.11 (the pins are for 3.11); run 'make PYTHON=/path/to/python3.11 ...'"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-pip.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-compile -r requirements.txt
	$(VENV)/bin/pip check
	@touch $@

# Colab's kernel-side versions (requirements-colab.txt says which, and what differs from Colab). Python 3.11 as
# for .venv: the CPU torch wheel is for 3.11. --clear: a refreshed pin list leaves no package of the old one behind.
colab-venv: $(COLAB_STAMP)

$(COLAB_STAMP): requirements-colab.txt requirements-pip.txt
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found; install Python 3.11 or run 'make PYTHON=/path/to/python3.11 ...'"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || { echo "error: $(PYTHON) is not Python 3.11 (requirements-colab.txt's torch is the CPU wheel for 3.11); run 'make PYTHON=/path/to/python3.11 ...'"; exit 1; }
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || { echo "error: $(PYTHON) cannot make a venv with pip; on Debian: apt-get install python3-venv"; exit 1; }
	$(PYTHON) -m venv --clear $(COLAB_VENV)
	$(COLAB_VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-pip.txt
	$(COLAB_VENV)/bin/pip install --quiet --disable-pip-version-check --no-compile -r requirements-colab.txt
	$(COLAB_VENV)/bin/pip check
	@touch $@

$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "error: npm not found; install Node.js 20 (it renders the math with KaTeX at build time)"; exit 1; }
	npm ci --no-audit --no-fund --ignore-scripts --omit=dev
	@touch $@

# Lighthouse is a devDependency: only `make audit` installs it (it would add ~200 packages to every build).
$(LIGHTHOUSE): package.json package-lock.json
	@command -v npm >/dev/null || { echo "error: npm not found; install Node.js 20"; exit 1; }
	npm ci --no-audit --no-fund --ignore-scripts --include=dev
	@touch $(NPM_STAMP) $@

# --no-compile: pip byte-compiles every module it installs, transformers' thousands of model files among them,
# which took two thirds of a fresh venv's set-up (105 s -> 29 s measured here with both cores busy); Python
# compiles the modules actually imported on first use and keeps them in __pycache__, unless
# PYTHONDONTWRITEBYTECODE is set, as in many Docker images and on the machine that measured these times: then
# every process compiled what it imports from source again (torch, ipykernel and matplotlib: 3.7 s of CPU instead
# of 1.7 s; with transformers 7.1 s instead of 3.7 s), in each of make test's notebook kernels. Make's commands
# write the compiled forms (into the venvs, and the repository's __pycache__ folders, which git ignores)
# whatever the shell says.
# The environments are independent, so a fresh clone sets them up side by side: `make -j3 setup colab-venv`
# took 56 s where one after the other took 1 min 40 s. Each stamp still installs only when missing or stale.
SETUP_PARALLEL = $(MAKE) --no-print-directory -j3 --output-sync=target

LAB_STAMP := $(VENV)/.lab-installed

$(LAB_STAMP): requirements-lab.txt $(VENV_STAMP)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-lab.txt
	$(VENV)/bin/pip check
	@touch $@

# JupyterLab on 127.0.0.1, opened on the notebooks (the student notebooks are in student/); widgets work
lab: $(LAB_STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=. $(ARGS) notebooks

book:
	@$(SETUP_PARALLEL) setup
	$(PY) -m tools.site build

execute: $(VENV_STAMP)
	$(PY) -m tools.notebooks execute $(CHAPTER)
	$(PY) -m tools.notebooks student

student: $(VENV_STAMP)
	$(PY) -m tools.notebooks student

lint: $(VENV_STAMP)
	$(VENV)/bin/ruff check tools tests notebooks student

# Colab's venv is needed by pytest only: it installs while the site is built. Installing is mostly writing files
# (torch alone: 12 s of wall, 4 s of CPU here) and the build is mostly CPU, so the two overlap well on two cores.
# The PDF is printed while the tests run: printing kept the two cores about 70 % busy for 45 s, and most tests
# need neither the PDF nor the landing page it writes again. The test modules that read the built site or the
# PDF wait for the print to end (tests/conftest.py: built_site, which also fails them if it failed), and make
# test fails if the print failed, after showing its output (_build/pdf-build.log).
PDF_STATUS := _build/pdf-build.status

test:
	@$(MAKE) --no-print-directory -j3 --output-sync=line colab-venv site
	@rm -f $(PDF_STATUS) $(PDF_STATUS).new
	@( code=0; $(PY) -m tools.pdf --skip-without-browser > _build/pdf-build.log 2>&1 || code=$$?; \
	   echo $$code > $(PDF_STATUS).new; mv $(PDF_STATUS).new $(PDF_STATUS) ) & \
	rc=0; BOOK_PDF_STATUS=$(PDF_STATUS) $(PY) -m pytest || rc=$$?; wait; \
	echo "PDF edition (printed while the tests ran): python -m tools.pdf"; cat _build/pdf-build.log; \
	pdf=$$(cat $(PDF_STATUS) 2>/dev/null || echo "no exit status"); \
	if [ "$$pdf" != 0 ]; then echo "error: the PDF build failed ($$pdf): its output is above"; exit 1; fi; \
	exit $$rc

site: setup
	@$(MAKE) --no-print-directory lint
	$(PY) -m tools.site build

# The site links the PDFs it has (those of the last `make pdf`, which `make book` keeps), and none before that.
serve:
	@test -f _build/html/index.html || { echo "error: no site in _build/html yet; run 'make book' first"; exit 1; }
	@compgen -G "_build/html/*/pdf/*.pdf" >/dev/null || echo "note: no PDF edition in this site yet, so none is linked; 'make pdf' prints it"
	$(PY) -m http.server --bind 127.0.0.1 --directory _build/html $(PORT)

# The PDF edition (tools/pdf.py): printed from the built site with Debian's chromium, into _build/pdf/ and the
# site's <lang>/pdf/, and the landing page written again to link them
pdf: book
	$(PY) -m tools.pdf

# Runs each submitted notebook in a bubblewrap sandbox and judges it with the book's checks (tools/grade.py says how).
# LANG=ko or LANG=en only: the shell's own LANG (en_US.UTF-8 and the like) is not a choice of language here, but
# LANG given on make's command line must be one of them. Relative folders are read from where make was called
# ($(PWD), also with make -C). POINTS=ch05-ex-mask=2,... sets points per exercise, ASSIGNMENT= the column of
# canvas.csv, MOODLE_LANG=ko the column names of moodle.csv (those of a Korean Moodle; en by default); NO_SANDBOX=1
# runs without the sandbox (only inside a container or VM of its own).
grade: $(VENV_STAMP)
	@test -n "$(CHAPTER)" -a -n "$(SUBMISSIONS)" || { echo "error: say which chapter and which folder: make grade CHAPTER=03 SUBMISSIONS=path/to/folder"; exit 2; }
	$(PY) -m tools.grade $(CHAPTER) "$(SUBMISSIONS)" --from "$(PWD)" $(if $(OUT),--out "$(OUT)") \
	  $(if $(or $(filter command line,$(origin LANG)),$(filter ko en,$(LANG))),--lang "$(LANG)") \
	  $(if $(POINTS),--points "$(POINTS)") $(if $(ASSIGNMENT),--assignment "$(ASSIGNMENT)") \
	  $(if $(MOODLE_LANG),--moodle-lang "$(MOODLE_LANG)") $(if $(NO_SANDBOX),--no-sandbox)

# A report, not a test: prints a table and exits 0 whatever the times (tools/bench.py says how it measures).
bench: $(VENV_STAMP)
	$(PY) -m tools.bench $(BENCH_ARGS)

# Audits the site as built (it builds nothing): serves _build/html on 127.0.0.1 and runs Lighthouse with
# Debian's chromium (CHROME_PATH=/usr/bin/chromium, headless, no sandbox); see tools/audit.py.
audit: built-site $(VENV_STAMP) $(LIGHTHOUSE)
	$(PY) -m tools.audit $(PAGES)

built-site:
	@test -f _build/html/index.html || { echo "error: no site in _build/html yet; run 'make book' first (make audit audits the site as built)"; exit 1; }

clean:
	rm -rf _build
