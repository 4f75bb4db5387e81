"""The Telegram side of a table: what its messages show (:mod:`bot.present.screens`), when
each is sent (:mod:`bot.present.pacing`), and how it is delivered (the outboxes, the gate and
:mod:`bot.present.courier`), brought together by :class:`bot.present.presenter.Presenter`."""
