# SPDX-License-Identifier: Apache-2.0
"""PySpark's exception classes. Engine errors arrive as AnalysisException (bad queries, unknown
columns), ParseException (syntax) or PySparkException subclasses."""


class PySparkException(Exception):
    def __init__(self, message=None, error_class=None, message_parameters=None, errorClass=None, messageParameters=None):
        self.message = message if message is not None else str(error_class or errorClass or "")
        self._error_class = error_class or errorClass
        self._message_parameters = message_parameters or messageParameters or {}
        super().__init__(self.message)

    def getErrorClass(self):
        return self._error_class

    def getCondition(self):
        return self._error_class

    def getMessageParameters(self):
        return self._message_parameters

    def __str__(self):
        return self.message


class AnalysisException(PySparkException):
    pass


class ParseException(AnalysisException):
    pass


class IllegalArgumentException(PySparkException):
    pass


class ArithmeticException(PySparkException):
    pass


class NumberFormatException(IllegalArgumentException):
    pass


class SparkRuntimeException(PySparkException):
    pass


class PythonException(PySparkException):
    pass


class UnsupportedOperationException(PySparkException):
    pass


class PySparkValueError(PySparkException, ValueError):
    pass


class PySparkTypeError(PySparkException, TypeError):
    pass


class PySparkIndexError(PySparkException, IndexError):
    pass


class PySparkAttributeError(PySparkException, AttributeError):
    pass


class PySparkRuntimeError(PySparkException, RuntimeError):
    pass


class PySparkNotImplementedError(PySparkException, NotImplementedError):
    pass


class PySparkAssertionError(PySparkException, AssertionError):
    pass


def from_engine(error):
    """The PySpark exception for an engine error."""
    name = type(error).__name__
    message = str(error)
    if message.startswith("Python function "):
        return PythonException(message)
    if name == "InvalidInputError":
        if message.startswith("syntax error"):
            return ParseException(message)
        return AnalysisException(message)
    if name in ("NotFoundError", "AlreadyExistsError"):
        return AnalysisException(message)
    if name == "NotSupportedError":
        return PySparkNotImplementedError(message)
    return SparkRuntimeException(message)


__all__ = [n for n in dir() if n[0].isupper()]
