"""Spec data shipped with hauntcheck (YAML files and their JSON Schemas)."""
