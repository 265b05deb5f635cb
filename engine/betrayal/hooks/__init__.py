"""Named hooks: the code of haunts whose rules the haunt vocabulary cannot say, one module per
haunt (``hNN_<slug>.py``). Each hook registers itself with a decorator naming its kind and id
(:mod:`hauntcheck.engine.betrayal.haunt.registry`); the registry imports every module here, so a new
haunt's module needs no other edit. A hook's docstring states the haunt rule it carries out and
cites the rule's id in the haunt file."""
