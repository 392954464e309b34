# lit configuration for Tessel's compiler tests: `// RUN: tessel-opt %s ...`.
import os
import lit.formats

config.name = "Tessel"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.tessel_test_build_dir
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

path = os.pathsep.join([config.tessel_tools_dir, config.tessel_runtime_tools_dir,
                        config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
config.substitutions.append(("%python", config.python))
