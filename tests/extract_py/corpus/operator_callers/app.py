"""operator.methodcaller with a literal name calls that method of its argument;
operator.attrgetter with a literal name reads that attribute of its argument."""
import operator
from operator import attrgetter, methodcaller


class Job:
    def run(self):
        return 1

    def stop(self):
        return 2


def main(job):
    operator.methodcaller("run")(job)
    stopper = methodcaller("stop")
    stopper(job)
    attrgetter("run")(job)()


main(Job())
