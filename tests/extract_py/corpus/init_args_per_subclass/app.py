"""What an __init__ stores from its parameters is, on an instance, what the calls that made that
instance passed: the arguments of a subclass's super().__init__(...) / Base.__init__(self, ...),
or of a call of a subclass inheriting the __init__, are on instances of that subclass (and of its
subclasses) only. A method of the base, whose self may be any of them, reads them all; a method of
one subclass does not read what a sibling, or a direct call of the base, passed."""


def beep():
    return "beep"


def flash():
    return "flash"


def ring():
    return "ring"


def chime():
    return "chime"


class Alarm:
    def __init__(self, signal):
        self.signal = signal

    def trigger(self):
        return self.signal()


class SoundAlarm(Alarm):
    def __init__(self):
        super().__init__(beep)

    def test(self):
        return self.signal()


class LoudAlarm(SoundAlarm):
    def check(self):
        return self.signal()


class LightAlarm(Alarm):
    def __init__(self):
        Alarm.__init__(self, flash)

    def test(self):
        return self.signal()


class BellAlarm(Alarm):
    def test(self):
        return self.signal()


SoundAlarm().test()
LoudAlarm().check()
LightAlarm().test()
BellAlarm(ring).test()
Alarm(chime).trigger()
